import { describe, expect, it } from "vitest";
import { multipartFileName } from "../src/index.js";
import {
  multipartBoundary,
  parseFormDataDisposition,
  readStrictForm,
  StrictMultipartError,
} from "../src/testing/index.js";

const B = "----b";
const part = (disposition: string, body: string, type?: string) =>
  `--${B}\r\nContent-Disposition: ${disposition}\r\n${type === undefined ? "" : `Content-Type: ${type}\r\n`}\r\n${body}\r\n`;

/** The body cut into pieces of `size` bytes, as a socket may deliver it. */
async function* pieces(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe("parseFormDataDisposition", () => {
  it("reads tokens and quoted strings; a repeated parameter: the last wins, as real parsers do", () => {
    expect([...parseFormDataDisposition('form-data; name="photo"; filename="a b.png"')]).toEqual([
      ["name", "photo"],
      ["filename", "a b.png"],
    ]);
    expect(parseFormDataDisposition("form-data;name=x;filename=chart.png; name=chat_id").get("name")).toBe(
      "chat_id",
    );
    expect(parseFormDataDisposition('form-data; name="f"; filename="été.png"').get("filename")).toBe(
      "été.png",
    );
  });

  it.each([
    ['attachment; name="x"', /not form-data/],
    ["form-data; name=x; filename=my chart.png", /malformed Content-Disposition parameters/],
    ['form-data; name="x"; filename="a; name=y"', /parsers read differently/],
    ['form-data; name="x"; filename="a\\"b"', /parsers read differently/],
    ["form-data; name=\"x\"; filename*=UTF-8''a.png", /not allowed in form-data/],
    ['form-data; name="x"; filename="a', /unterminated/],
    ['form-data; name="x"; filename="a\u0000b"', /control character/],
  ])("refuses %j", (value, message) => {
    expect(() => parseFormDataDisposition(value)).toThrow(message);
  });
});

describe("readStrictForm", () => {
  const body =
    part('form-data; name="chat_id"', "42") +
    part('form-data; name="doc"; filename="a.bin"', "x".repeat(300), "application/octet-stream") +
    `--${B}--\r\n`;

  it("reads fields and files whatever the chunking", async () => {
    for (const size of [1, 7, 64, body.length]) {
      const form = await readStrictForm(pieces(body, size), B, { headBytes: 4, keepFileBytes: true });
      expect(form.fields.get("chat_id")).toBe("42");
      expect(form.files).toEqual([
        expect.objectContaining({
          name: "doc",
          fileName: "a.bin",
          contentType: "application/octet-stream",
          size: 300,
          head: Buffer.from("xxxx"),
          data: Buffer.from("x".repeat(300)),
        }),
      ]);
    }
  });

  it.each([
    ["a preamble", `junk\r\n${body}`, /does not start with its boundary/],
    ["no closing boundary", body.slice(0, -8), /before the closing boundary/],
    [
      "a folded header",
      `--${B}\r\nContent-Disposition: form-data;\r\n name="x"\r\n\r\nv\r\n--${B}--`,
      /malformed part header/,
    ],
    ["a part without a name", `${part("form-data", "v")}--${B}--`, /without a name/],
  ])("refuses %s", async (_case, text, message) => {
    await expect(readStrictForm(pieces(text, 16), B)).rejects.toThrow(message);
  });

  it("refuses a part over its limit", async () => {
    await expect(readStrictForm(pieces(body, 64), B, { maxFileBytes: 100 })).rejects.toBeInstanceOf(
      StrictMultipartError,
    );
  });

  it("reads every name multipartFileName writes as that name", async () => {
    const names = ["chart.png; name=chat_id", 'a"b.png', "C:\\x\\y.png", "été\r\n.png", ".."];
    for (const name of names) {
      const text = `${part(`form-data; name="f"; filename=${multipartFileName(name)}`, "x")}--${B}--`;
      const form = await readStrictForm(pieces(text, 5), B);
      expect([form.files[0]?.name, form.files[0]?.fileName]).toEqual(["f", expect.any(String)]);
    }
  });
});

describe("multipartBoundary", () => {
  it("reads the boundary of multipart/form-data only", () => {
    expect(multipartBoundary("multipart/form-data; boundary=----x")).toBe("----x");
    expect(multipartBoundary('multipart/form-data; boundary="a b"; charset=utf-8')).toBe("a b");
    expect(multipartBoundary("application/json")).toBeUndefined();
  });
});
