/**
 * The error for a mistake in what the user typed. A leaf, so that the modules that throw it
 * (the platform list among them) and the one that explains errors do not import each other.
 */

/** A problem with what the user typed: reported in one line, exit code 2. */
export class UsageError extends Error {
  /** How to fix it. */
  readonly fix: string;

  constructor(message: string, fix: string) {
    super(message);
    this.name = "UsageError";
    this.fix = fix;
  }
}
