/**
 * Types of `mediaFromMcpArguments`: the media arguments an MCP tool takes, and what they
 * become.
 */
import type { MediaAttachment } from "@outbox/core";

/** One image or file in a tool call, base64 as MCP carries media. */
export interface McpMediaArgument {
  /** The bytes, standard base64 (a `data:<type>;base64,` prefix is accepted). */
  data: string;
  /** Declared MIME type; must be on the allowlist and agree with the bytes. */
  mimeType: string;
  /** File name to show on the platform (sanitized; never used as a path). */
  name?: string;
}

/** The arguments `mediaFromMcpArguments` reads. */
export interface McpMessageArguments {
  /** The message text (Markdown; the rich output protocol applies). */
  message: string;
  /** Images: jpeg, png, gif, webp; at most 10. */
  images?: McpMediaArgument[];
  /** Documents, audio, video and archives; at most 5. */
  files?: McpMediaArgument[];
}

/** Options of `mediaFromMcpArguments`. */
export interface McpMediaOptions {
  /** Directory the private temp directory is created in. Default `os.tmpdir()`. */
  parentDir?: string;
  /**
   * A fixed name for the directory (instead of a random one): the same call repeated writes
   * the same paths, so an idempotent send's fingerprint, which covers them, stays the same.
   * A directory left by an earlier call of that name is replaced; the caller keeps concurrent
   * calls of one name apart.
   */
  dirName?: string;
  /** Extract the text of PDFs into `documents`. Default true. */
  extractPdfText?: boolean;
  /** Cancels the work; whatever was written is removed. */
  signal?: AbortSignal;
}

/** Text extracted from a PDF argument. */
export interface McpDocumentText {
  /** The PDF's file name. */
  fileName: string;
  /** Number of pages. */
  pages: number;
  /** Its text, pages separated by a blank line. */
  text: string;
}

/** The media of a tool call, written to a private temp directory. */
export interface McpInboundMedia {
  /** The message text, as given. */
  message: string;
  /** Images then files, in argument order, each a file in {@link McpInboundMedia.dir} with its sniffed MIME type. */
  media: MediaAttachment[];
  /** Text of each PDF (unless `extractPdfText` is false). */
  documents: McpDocumentText[];
  /** The private temp directory (mode 0700) holding the files. */
  dir: string;
  /** Removes the directory and everything in it; safe to call more than once. */
  cleanup(): Promise<void>;
}
