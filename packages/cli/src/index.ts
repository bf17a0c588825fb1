/**
 * @outbox/cli: the `outbox` command, also callable from code.
 *
 * @packageDocumentation
 */

export { loadPlatforms, type Platform, type Platforms } from "./platforms.js";
export { runCli } from "./program.js";
