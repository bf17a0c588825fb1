/**
 * Text of a PDF, with unpdf (PDF.js built for servers: pure JavaScript, no native build).
 * A malformed PDF is a `MediaError`, never a crash.
 */
import { MediaError } from "@outbox/core";

/** Text extracted from one PDF. */
export interface PdfText {
  /** Number of pages. */
  pages: number;
  /** The text of every page, pages separated by a blank line. */
  text: string;
}

/**
 * Extracts the text of a PDF.
 *
 * @throws MediaError (`unsupported-type`) when the bytes are not a readable PDF.
 */
export async function extractPdfText(bytes: Uint8Array, label: string): Promise<PdfText> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
    try {
      const { totalPages, text } = await extractText(pdf, { mergePages: false });
      return { pages: totalPages, text: text.join("\n\n").trim() };
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MediaError(
      "unsupported-type",
      `${label} is not a readable PDF (${reason}); send a valid PDF.`,
      {
        cause: error,
      },
    );
  }
}
