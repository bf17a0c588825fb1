/** Reading the reply text of `parse` and `send`: an argument, a file, or standard input. */
import { readFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { UsageError } from "../output/usage-error.js";

/** The contents of `file`, or of standard input for `-`. */
export async function readTextFile(file: string): Promise<string> {
  if (file === "-") return text(process.stdin);
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file} (${code ?? String(error)})`,
      "give the path of a readable text file, or - to read standard input",
    );
  }
}
