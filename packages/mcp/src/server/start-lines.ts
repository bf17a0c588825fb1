/**
 * What `outbox-mcp` says at start, about exactly what it can deliver to: the platforms whose
 * adapter is installed and (without `--emulator`) whose settings are set; the others with what
 * to do. The adapters of the configured platforms are built here (emulators started with
 * `--emulator`), so a missing platform library shows at start, not at the first message.
 */
import { type AdapterDescriptor, PayloadError, readAdapterEnv } from "@outbox/core";
import type { ChannelPool } from "./channel-pool.js";

/**
 * Build every configured platform's adapter (every installed one's emulator with `emulator`)
 * and return the server's instruction lines. A missing adapter or library never stops the
 * server: it is named with the npm command that adds it.
 */
export async function startLines(
  pool: ChannelPool,
  descriptors: readonly AdapterDescriptor[],
  env: Readonly<Record<string, string | undefined>>,
  emulator: boolean,
): Promise<string[]> {
  const ready: string[] = [];
  const unconfigured: string[] = [];
  const missing: string[] = [];
  for (const descriptor of descriptors) {
    const reading = readAdapterEnv(descriptor, env);
    if (!emulator && !reading.ok) {
      unconfigured.push(
        `${descriptor.name} (set ${reading.missing.map((variable) => variable.name).join(" and ")})`,
      );
      continue;
    }
    // Any other failure is the tool call's to report (the pool builds again then).
    const installed = await pool.get(descriptor.name).then(
      () => true,
      (error: unknown) => !(error instanceof PayloadError && error.issues[0]?.code === "not_installed"),
    );
    if (installed) ready.push(descriptor.name);
    else missing.push(`${descriptor.name} (npm install ${descriptor.packages.join(" ")})`);
  }
  const lines = [
    ready.length > 0
      ? `outbox-mcp delivers to: ${ready.join(", ")}.`
      : "outbox-mcp delivers to no platform yet: install an adapter and set its token (see below).",
  ];
  if (unconfigured.length > 0) lines.push(`Not configured: ${unconfigured.join(", ")}.`);
  if (missing.length > 0) lines.push(`Not installed: ${missing.join(", ")}.`);
  for (const [name, channel] of pool.emulated)
    lines.push(
      `Emulator mode: ${name} delivers to an emulator on 127.0.0.1; send to to="${channel.target.to}".`,
    );
  return lines;
}
