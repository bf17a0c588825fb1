/**
 * `mediaFromMcpArguments`: the base64 images and files of a tool call, checked, written to
 * a private temp directory and returned as `MediaAttachment`s with a `cleanup()`.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import { loadMedia, type MediaAttachment, MediaError, normalizeMimeType } from "@outbox/core";
import { canonicalMime, nameForType } from "./allowlist.js";
import { checkDeclaredType } from "./declared-type.js";
import { extractPdfText } from "./pdf-text.js";
import type { McpDocumentText, McpInboundMedia, McpMediaOptions, McpMessageArguments } from "./types.js";
import { type CheckedItem, checkArguments, MCP_MAX_INPUT_BYTES } from "./validate-arguments.js";

/** A name safe to show and to use inside the temp directory: no path, no control characters. */
function safeName(item: CheckedItem): string {
  const fallback = `${item.field === "images" ? "image" : "file"}-${item.index + 1}`;
  const given = basename((item.name ?? "").replace(/\\/g, "/"))
    .replace(/[^\p{L}\p{N}._ -]/gu, "_")
    .replace(/^[.\s]+/, "")
    .slice(0, 120);
  const stem = given === "" ? fallback : given;
  return extname(stem) === "" ? `${stem}.${item.allowed[item.mimeType]}` : stem;
}

function aborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new MediaError("fetch-failed", "Reading the media arguments was cancelled.");
}

/** Writes one item's bytes, then checks the format its bytes are against its declared type. */
async function writeItem(
  item: CheckedItem,
  bytes: Buffer,
  dir: string,
  position: number,
): Promise<MediaAttachment> {
  const fileName = safeName(item);
  const filePath = join(dir, `${String(position).padStart(2, "0")}-${fileName}`);
  await writeFile(filePath, bytes, { mode: 0o600, flag: "wx" });
  const label = `${item.field}[${item.index}] (${fileName})`;
  let recognised: string | undefined;
  try {
    // No declared type and a neutral name: the bytes alone say what they are.
    const loaded = await loadMedia(
      { filePath, fileName: "item", mimeType: "application/octet-stream" },
      { localRoots: [dir], workspaceDir: dir, maxBytes: MCP_MAX_INPUT_BYTES },
    );
    const sniffed = canonicalMime(normalizeMimeType(loaded.mimeType) ?? loaded.mimeType);
    recognised = sniffed === "application/octet-stream" ? undefined : sniffed;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MediaError("unsupported-type", `${label}: ${reason.split(filePath).join(fileName)}`, {
      cause: error,
    });
  }
  const mimeType = checkDeclaredType(label, item.mimeType, recognised);
  return { filePath, mimeType, fileName: nameForType(fileName, mimeType, item.allowed) };
}

/**
 * Turns `{ message, images?, files? }` into media: strict base64, MIME allowlist checked on
 * the declared type and on the sniffed bytes, 15 MB per item, at most 10 images and 5
 * files. Files go to a private temp directory (mode 0700); PDFs get their text extracted.
 * On any error or abort the directory is removed before the error is thrown; otherwise the
 * caller removes it with `cleanup()` once the media is delivered.
 *
 * @throws PayloadError for malformed arguments (every problem listed with its field), or
 *   MediaError when bytes contradict their type, a PDF is unreadable, or the call is aborted.
 */
export async function mediaFromMcpArguments(
  args: McpMessageArguments,
  options: McpMediaOptions = {},
): Promise<McpInboundMedia> {
  const { message, items } = checkArguments(args);
  aborted(options.signal);
  const parent = options.parentDir ?? tmpdir();
  const dir =
    options.dirName === undefined
      ? await mkdtemp(join(parent, "outbox-mcp-"))
      : await freshDir(join(parent, basename(options.dirName)));
  const cleanup = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    await chmod(dir, 0o700);
    const media: MediaAttachment[] = [];
    const documents: McpDocumentText[] = [];
    for (const [position, item] of items.entries()) {
      aborted(options.signal);
      const bytes = Buffer.from(item.base64, "base64");
      const attachment = await writeItem(item, bytes, dir, position + 1);
      media.push(attachment);
      if (attachment.mimeType === "application/pdf" && options.extractPdfText !== false) {
        const label = `${item.field}[${item.index}] (${attachment.fileName})`;
        const { pages, text } = await extractPdfText(bytes, label);
        documents.push({ fileName: attachment.fileName ?? "document.pdf", pages, text });
      }
    }
    aborted(options.signal);
    return { message, media, documents, dir, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** `dir` created empty (a leftover of an earlier call removed first). */
async function freshDir(dir: string): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { mode: 0o700 });
  return dir;
}
