import { homedir } from "node:os";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { mediaIdentity } from "../../src/parse/media-identity.js";

describe("mediaIdentity", () => {
  const ws = "/work/space";
  it.each([
    ["  /tmp/a.png  ", "/tmp/a.png"],
    ["file:///tmp/a.png", "/tmp/a.png"],
    ["file:///tmp/My%20File.png", "/tmp/My File.png"],
    ["./out/a.png", "/work/space/out/a.png"],
    ["out/a.png", "/work/space/out/a.png"],
    ["/tmp/./x/../a.png", "/tmp/a.png"],
    ["https://EXAMPLE.com:443/a.png#frag", "https://example.com/a.png"],
    ["HTTPS://example.com/a.png", "https://example.com/a.png"],
    ["https://example.com:8443/a.png", "https://example.com:8443/a.png"],
  ])("%j → %j", (ref, identity) => {
    expect(mediaIdentity(ref, ws)).toBe(identity);
  });

  it("expands ~/ to the home directory and defaults to the current directory", () => {
    expect(mediaIdentity("~/a.png")).toBe(resolve(homedir(), "a.png"));
    expect(mediaIdentity("a.png")).toBe(resolve(process.cwd(), "a.png"));
  });

  it("treats the same file written three ways as one media", () => {
    const ids = ["/work/space/a.png", "./a.png", "file:///work/space/a.png"].map((ref) =>
      mediaIdentity(ref, ws),
    );
    expect(new Set(ids).size).toBe(1);
  });

  it("keeps distinct media distinct", () => {
    expect(mediaIdentity("https://example.com/a.png?x=1", ws)).not.toBe(
      mediaIdentity("https://example.com/a.png?x=2", ws),
    );
    expect(mediaIdentity("C:\\x\\a.png", ws)).toBe("C:\\x\\a.png");
  });
});
