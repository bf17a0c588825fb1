import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureBytes } from "@outbox/conformance";
import { MediaError, PayloadError } from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type McpMediaArgument, mediaFromMcpArguments } from "../src/index.js";

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString("base64");
const png: McpMediaArgument = { data: b64(fixtureBytes("png")), mimeType: "image/png", name: "chart.png" };
const pdf: McpMediaArgument = {
  data: b64(fixtureBytes("pdf")),
  mimeType: "application/pdf",
  name: "report.pdf",
};

let parentDir = "";
beforeEach(() => {
  parentDir = mkdtempSync(join(tmpdir(), "outbox-mcp-args-"));
});
afterEach(() => rmSync(parentDir, { recursive: true, force: true }));

/** The call fails with the expected error class and leaves nothing behind. */
async function rejects(
  args: Parameters<typeof mediaFromMcpArguments>[0],
  type: typeof PayloadError | typeof MediaError,
  message: RegExp,
) {
  const error = await mediaFromMcpArguments(args, { parentDir }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(type);
  expect((error as Error).message).toMatch(message);
  expect(readdirSync(parentDir), "temp files removed").toEqual([]);
  return error;
}

describe("mediaFromMcpArguments", () => {
  it("writes images and files to a private directory, sniffed, with PDF text, and cleans up", async () => {
    const result = await mediaFromMcpArguments(
      {
        message: "see attached",
        images: [png],
        files: [{ ...pdf, data: `data:application/pdf;base64,${pdf.data}` }],
      },
      { parentDir },
    );
    expect(result.message).toBe("see attached");
    expect(statSync(result.dir).mode & 0o777).toBe(0o700);
    expect(result.media.map((m) => [m.fileName, m.mimeType])).toEqual([
      ["chart.png", "image/png"],
      ["report.pdf", "application/pdf"],
    ]);
    for (const item of result.media) {
      expect(item.filePath?.startsWith(`${result.dir}/`)).toBe(true);
      expect(statSync(item.filePath as string).mode & 0o777).toBe(0o600);
    }
    expect(readFileSync(result.media[1]?.filePath as string)).toEqual(fixtureBytes("pdf"));
    expect(result.documents).toEqual([{ fileName: "report.pdf", pages: 1, text: "Outbox fixture" }]);
    await result.cleanup();
    await result.cleanup();
    expect(existsSync(result.dir)).toBe(false);
  });

  it("never uses a given name as a path", async () => {
    const result = await mediaFromMcpArguments(
      {
        message: "",
        images: [
          { ...png, name: "../../etc/passwd" },
          { ...png, name: undefined },
        ],
      },
      { parentDir },
    );
    expect(result.media.map((m) => m.fileName)).toEqual(["passwd.png", "image-2.png"]);
    await result.cleanup();
  });

  it("shows a name whose extension matches the bytes", async () => {
    const result = await mediaFromMcpArguments(
      {
        message: "",
        images: [{ ...png, name: "photo.exe" }],
        files: [
          { ...pdf, name: "invoice.pdf.exe" },
          { data: b64("a,b\n"), mimeType: "text/csv", name: "table.csv" },
          { data: b64(fixtureBytes("mp4")), mimeType: "video/mp4", name: "clip.mp4" },
        ],
      },
      { parentDir },
    );
    expect(result.media.map((m) => m.fileName)).toEqual([
      "photo.exe.png",
      "invoice.pdf.exe.pdf",
      "table.csv",
      "clip.mp4",
    ]);
    for (const item of result.media) expect(item.filePath?.startsWith(`${result.dir}/`)).toBe(true);
    await result.cleanup();
  });

  it("refuses invalid base64 instead of decoding garbage", async () => {
    for (const data of ["not base64!", "iVBORw0KGgo", "iVBOR w0KGgo=", "iVBORw0KGgo-_==", ""]) {
      const error = await rejects(
        { message: "x", images: [{ ...png, data }] },
        PayloadError,
        /images\[0\]\.data/,
      );
      expect((error as PayloadError).issues[0]?.path).toEqual(["images", 0, "data"]);
    }
  });

  it("refuses a MIME type off the allowlist, and bytes that contradict the declared type", async () => {
    await rejects(
      { message: "x", files: [{ ...png, mimeType: "application/x-msdownload" }] },
      PayloadError,
      /not accepted/,
    );
    await rejects(
      { message: "x", images: [{ ...pdf, mimeType: "application/pdf" }] },
      PayloadError,
      /images\[0\]\.mimeType/,
    );
    await rejects(
      { message: "x", images: [{ ...pdf, mimeType: "image/png" }] },
      MediaError,
      /images\[0\].*application\/pdf/,
    );
    const elf = b64(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(56).fill(0)]));
    await rejects({ message: "x", files: [{ data: elf, mimeType: "text/plain" }] }, MediaError, /files\[0\]/);
  });

  it("refuses more than 10 images or 5 files, and items over 15 MB, before writing anything", async () => {
    await rejects({ message: "x", images: new Array(11).fill(png) }, PayloadError, /at most 10/);
    await rejects({ message: "x", files: new Array(6).fill(pdf) }, PayloadError, /at most 5/);
    const big = "A".repeat(Math.ceil(((15 * 1024 * 1024 + 3) / 3) * 4));
    await rejects({ message: "x", files: [{ data: big, mimeType: "text/plain" }] }, PayloadError, /15 MB/);
  });

  it("a malformed PDF is a MediaError, not a crash, and its files are removed", async () => {
    const broken = {
      data: b64("%PDF-1.7\n1 0 obj << /Type /Catalog >>\ntrailer garbage"),
      mimeType: "application/pdf",
    };
    const error = await rejects(
      { message: "x", images: [png], files: [broken] },
      MediaError,
      /not a readable PDF/,
    );
    expect((error as MediaError).reason).toBe("unsupported-type");
  });

  it("an abort during the work removes everything written so far", async () => {
    const controller = new AbortController();
    const pending = mediaFromMcpArguments(
      { message: "x", images: [png, png, png], files: [pdf] },
      { parentDir, signal: controller.signal },
    );
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect((error as Error).message).toMatch(/cancelled/);
    expect(readdirSync(parentDir)).toEqual([]);
  });
});
