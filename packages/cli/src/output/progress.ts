/** A progress line on stderr while something runs, drawn only when stderr is an interactive terminal. */
import { createSpinner } from "nanospinner";
import type { Terminal } from "./terminal.js";

/** The progress line. */
export interface Progress {
  /** Show this text. */
  update(text: string): void;
  /** Remove the line. */
  done(): void;
}

/** Start a progress line (a no-op when stderr is not an interactive terminal). */
export function startProgress(term: Terminal, text: string): Progress {
  if (!term.interactive) return { update: () => {}, done: () => {} };
  const spinner = createSpinner(text, { stream: process.stderr }).start();
  return {
    update: (next) => {
      spinner.update({ text: next });
    },
    done: () => {
      spinner.stop();
      spinner.clear();
    },
  };
}
