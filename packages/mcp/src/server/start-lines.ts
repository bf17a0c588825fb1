/**
 * What `outbox-mcp` says at start, about exactly what it can deliver to: the platforms whose
 * adapter is installed and (without `--emulator`) whose token is set; the others with what
 * to do. With `--emulator` the installed platforms' emulators are started here.
 */
import { PayloadError } from "@outbox/core";
import type { ChannelPool } from "./channel-pool.js";
import type { McpPlatform } from "./platforms.js";

/**
 * Probe every platform, start the emulators of the installed ones (`emulator`), and return
 * the server's instruction lines. A missing adapter never stops the server: it is named with
 * the npm command that adds it.
 */
export async function startLines(
  pool: ChannelPool,
  platforms: Readonly<Record<string, McpPlatform>>,
  env: Readonly<Record<string, string | undefined>>,
  emulator: boolean,
): Promise<string[]> {
  const ready: string[] = [];
  const unconfigured: string[] = [];
  const missing: string[] = [];
  for (const name of pool.names) {
    const platform = platforms[name] as McpPlatform;
    if (!(await (platform.installed?.() ?? Promise.resolve(true)))) {
      missing.push(`${name} (npm install ${platform.packages})`);
      continue;
    }
    if (emulator) {
      const started = await pool.get(name).then(
        () => true,
        (error: unknown) => {
          if (error instanceof PayloadError && error.issues[0]?.code === "not_installed") return false;
          throw error;
        },
      );
      if (!started) {
        missing.push(`${name} (npm install ${platform.packages})`);
        continue;
      }
    } else if (!env[platform.tokenEnv]) {
      unconfigured.push(`${name} (set ${platform.tokenEnv})`);
      continue;
    }
    ready.push(name);
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
