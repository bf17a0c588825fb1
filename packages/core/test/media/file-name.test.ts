import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanFileName, loadMedia, MAX_FILE_NAME_BYTES, type MediaPolicy } from "../../src/index.js";
import { type Harness, startHarness } from "./helpers/harness.js";
import { png } from "./helpers/samples.js";

describe("cleanFileName: one rule for every name", () => {
  it.each([
    ["chart.png", "chart.png"],
    ["Quarterly report (final).pdf", "Quarterly report (final).pdf"],
    ["été 2026.png", "été 2026.png"],
    ["../../etc/passwd", "passwd"],
    ["..\\..\\Windows\\win.ini", "win.ini"],
    ["C:\\Users\\me\\report.pdf", "report.pdf"],
    ["reports/", ""],
    ["..", ""],
    ["invoice\u202Egnp.exe", "invoicegnp.exe"],
    ["\u2066report\u2069.pdf\u200F", "report.pdf"],
    ["a\u061Cb\u200Ec.txt", "abc.txt"],
    ["zero\u200Bwidth\u200C\u200D\u2060\uFEFF.png", "zerowidth.png"],
    ["soft\u00ADhyphen.png", "softhyphen.png"],
    ["invoice.pdf\0.exe", "invoice.pdf .exe"],
    ["bell\u0007\u007F\u0085\u009Fname.txt", "bell name.txt"],
    ["line\r\nbreak\u2028name.txt", "line break name.txt"],
    ["chart.png; name=chat_id", "chart.png_ name=chat_id"],
    ['a"; filename="b.exe', "a__ filename=_b.exe"],
    ["  .hidden  ", "hidden"],
    ["invoice.exe. . .", "invoice.exe"],
    ["\uD800lone.png", "lone.png"],
    ["\u3164\u115F.png", "png"],
    ["", ""],
  ])("%j → %j", (raw, clean) => {
    expect(cleanFileName(raw)).toBe(clean);
  });

  it("is idempotent", () => {
    for (const raw of ["../a\u202Eb.png", "x; y", `${"é".repeat(300)}.pdf`, " .a. ", "a\0b"])
      expect(cleanFileName(cleanFileName(raw))).toBe(cleanFileName(raw));
  });

  it("bounds the length in UTF-8 bytes, on a code point boundary, keeping the extension", () => {
    const long = cleanFileName(`${"😀".repeat(200)}.pdf`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(long).toMatch(/^(😀)+\.pdf$/u);
    const noExtension = cleanFileName(`x.${"y".repeat(400)}`);
    expect(noExtension.length).toBe(MAX_FILE_NAME_BYTES);
  });

  it("takes linear time on a 1 MB hostile name", () => {
    const hostile = `${". \u202E\0/".repeat(250_000)}x`;
    const started = performance.now();
    expect(cleanFileName(hostile)).toBe("x");
    expect(cleanFileName(`${".".repeat(1_000_000)}x${" .".repeat(10)}`)).toBe("x");
    expect(cleanFileName(`${"\u202E \0.".repeat(250_000)}report.pdf`)).toBe("report.pdf");
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("loadMedia: every source's name goes through the rule", () => {
  let root: string;
  let policy: MediaPolicy;
  let harness: Harness;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "outbox-file-name-"));
    writeFileSync(join(root, "invoice\u202Egnp.exe"), png());
    writeFileSync(join(root, "chart.png"), png());
    harness = await startHarness();
    policy = { workspaceDir: root };
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await harness.close();
  });

  it("a structured attachment's fileName (inline bytes, data: URI, file path)", async () => {
    const fileName = "../../secret\u202Egnp.exe";
    const inline = await loadMedia({ mimeType: "image/png", data: png(), fileName }, policy);
    const dataUri = await loadMedia(
      { mimeType: "image/png", base64: `data:image/png;base64,${png().toString("base64")}`, fileName },
      policy,
    );
    const path = await loadMedia({ mimeType: "image/png", filePath: "chart.png", fileName }, policy);
    expect([inline.fileName, dataUri.fileName, path.fileName]).toEqual([
      "secretgnp.exe",
      "secretgnp.exe",
      "secretgnp.exe",
    ]);
  });

  it("a local file's own name", async () => {
    const media = await loadMedia("invoice\u202Egnp.exe", policy);
    expect(media.fileName).toBe("invoicegnp.exe");
  });

  it("a remote Content-Disposition and a URL's last segment", async () => {
    harness.route("/download", (_request, response) => {
      response.writeHead(200, {
        "content-disposition": "attachment; filename*=UTF-8''x%E2%80%AEgnp.exe%3B%20name%3Dchat_id",
      });
      response.end(png());
    });
    harness.route("/a%E2%80%AEgnp.exe", (_request, response) => response.end(png()));
    const disposition = await loadMedia("https://media.outbox.test/download", harness.policy());
    const url = await loadMedia("https://media.outbox.test/a%E2%80%AEgnp.exe", harness.policy());
    expect([disposition.fileName, url.fileName]).toEqual(["xgnp.exe_ name=chat_id", "agnp.exe"]);
  });

  it("a name with nothing left is named after the kind", async () => {
    const image = await loadMedia({ mimeType: "image/png", data: png(), fileName: "\u202E../" }, policy);
    const text = await loadMedia({ mimeType: "text/plain", data: Buffer.from("hi") }, policy);
    expect([image.fileName, text.fileName]).toEqual(["image.png", "document.txt"]);
  });
});
