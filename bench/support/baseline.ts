import { existsSync, readFileSync } from "node:fs";

/** The committed baseline a benchmark compares itself with, or `undefined` before its first run. */
export function readBaseline<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : undefined;
}
