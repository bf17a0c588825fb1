/**
 * @outbox/cli: the `outbox` command, also callable from code.
 *
 * @packageDocumentation
 */

export { findPlatform, type Platform, platforms, type RealAdapterOptions } from "./platforms.js";
export { runCli } from "./program.js";
