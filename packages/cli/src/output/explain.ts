/**
 * Every error the CLI reports is one line: what went wrong and how to fix it. Core's
 * error classes carry stable codes; the fix is chosen from the code (and, for media, from
 * whether the reference was a URL or a local path).
 */
import { MediaError, OutboxError, PayloadError, StoreError, TargetNotFoundError } from "@outbox/core";
import type { Platform } from "../platforms.js";
import { UsageError } from "./usage-error.js";

/**
 * Where a failed part stands in its reply: whether it may have arrived, and how many of the
 * reply's messages did. `outbox send` has no journal between runs, so running it again sends
 * the whole reply: the fix must never advise that when part of it arrived.
 */
export interface FailedPart {
  /** The part may have reached the platform (no answer confirmed or denied it). */
  ambiguous: boolean;
  /** Messages of the same reply that were delivered. */
  delivered: number;
}

/** One line: the error's message and the fix for it (for a part of a reply, where it stands). */
export function explain(error: unknown, platform?: Platform | "emulator", part?: FailedPart): string {
  if (error instanceof UsageError) return `${error.message}. Fix: ${error.fix}`;
  if (!(error instanceof OutboxError)) return `${error instanceof Error ? error.message : String(error)}`;
  // The SDK's advice for a local path (MediaPolicy.localRoots) is not a CLI user's: the fix says --root.
  const message = error.message
    .replace(/\.$/, "")
    .replace(/; add its directory to MediaPolicy\.localRoots or move the file there$/, "");
  return `${error.code}: ${message}. Fix: ${part ? partFix(error, platform, part) : fixFor(error, platform)}`;
}

/** The fix for one failed part of a reply: never a whole resend over what arrived. */
function partFix(error: OutboxError, platform: Platform | "emulator" | undefined, part: FailedPart): string {
  if (part.ambiguous)
    return "it may have arrived (the request reached the platform and no answer confirmed it): look in the chat before sending it again";
  const fix = fixFor(error, platform);
  return part.delivered > 0
    ? `${fix}; then send only what did not arrive (the rest of the reply did, and running the command again repeats it)`
    : fix;
}

/** The fix for an Outbox error. */
export function fixFor(error: OutboxError, platformOrEmulator?: Platform | "emulator"): string {
  const platform = platformOrEmulator === "emulator" ? undefined : platformOrEmulator;
  if (error instanceof PayloadError) {
    const issues = error.issues.map((issue) => `${issue.path.join(".") || "payload"}: ${issue.message}`);
    return issues.length > 0 ? `correct ${issues.join("; ")}` : "correct the reply";
  }
  if (error instanceof MediaError && error.reason === "blocked") {
    return isUrl(error.ref)
      ? "use a public https URL; private, loopback and cloud-metadata addresses are always refused"
      : "move the file under the working directory, or pass --root <dir> for the directory that holds it";
  }
  if (error instanceof TargetNotFoundError) {
    if (error.missing === "reply") return "check --reply-to: the message must exist in that chat";
    if (error.missing === "thread") return "check --thread: the thread or topic must exist in that chat";
    if (platformOrEmulator === "emulator") return "leave --to out with --emulator: the emulated chat is used";
    return `check --to: ${platform ? `use ${platform.target.description}` : "the chat must exist and the bot must be in it"}`;
  }
  if (error instanceof StoreError)
    return "check Outbox's store (the journal's disk, or Redis), then send again: nothing was sent";
  switch (error.code) {
    case "media_not_found":
      return "check the path; relative paths are resolved from the working directory";
    case "media_too_large":
      return "send a smaller file, or a public https link to it";
    case "media_unsupported_type":
      return "send a file whose content matches a supported media type";
    case "media_fetch_failed":
      return "check that the URL is reachable and answers with the media";
    case "auth_failed": {
      const token = platform?.env.find((variable) => variable.secret);
      return `check ${token?.name ?? "the token"}: the platform refused it (${token?.help ?? "use a valid token"})`;
    }
    case "rate_limited":
      return "wait a moment and send again";
    case "transport_error":
      return "check the network connection and try again";
    case "unsupported_feature":
      return "leave that feature out (for example --voice or --thread) for this platform";
    default:
      return "read the platform's description above; the request was understood and refused";
  }
}

function isUrl(ref: string | undefined): boolean {
  return ref !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(ref);
}
