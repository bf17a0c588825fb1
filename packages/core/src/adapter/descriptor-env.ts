/**
 * The one reading of a platform's environment, shared by every tool: the variables an
 * adapter descriptor declares, mapped to its config fields. A variable set to the empty
 * string counts as unset.
 */
import type { AdapterDescriptor, AdapterEnvConfig, AdapterEnvVariable } from "./descriptor.js";

/** The result of {@link readAdapterEnv}: the config, or the required variables that are not set. */
export type AdapterEnvReading<Field extends string = string> =
  | { ok: true; config: AdapterEnvConfig<Field> }
  | { ok: false; missing: AdapterEnvVariable<Field>[] };

/** Read `descriptor.env` from `env` into config fields; lists every required variable missing. */
export function readAdapterEnv<Field extends string>(
  descriptor: Pick<AdapterDescriptor<Field>, "env">,
  env: Readonly<Record<string, string | undefined>>,
): AdapterEnvReading<Field> {
  const config: { [K in Field]?: string } = {};
  const missing: AdapterEnvVariable<Field>[] = [];
  for (const variable of descriptor.env) {
    const value = env[variable.name];
    if (value !== undefined && value !== "") config[variable.field] = value;
    else if (variable.required) missing.push(variable);
  }
  return missing.length > 0 ? { ok: false, missing } : { ok: true, config };
}

/** The values of the credential variables (`secret`) set in `env`, for redaction. */
export function adapterSecrets(
  descriptors: readonly Pick<AdapterDescriptor, "env">[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  return descriptors
    .flatMap((descriptor) => descriptor.env.filter((variable) => variable.secret))
    .map((variable) => env[variable.name])
    .filter((value): value is string => value !== undefined && value !== "");
}
