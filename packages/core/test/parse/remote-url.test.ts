import { describe, expect, it } from "vitest";
import { checkRemoteMediaUrl } from "../../src/parse/remote-url.js";

describe("checkRemoteMediaUrl", () => {
  it.each([
    "https://example.com/a.png",
    "https://cdn.example.test/x",
    "HTTPS://Example.COM/a.png",
    "https://example.com:8443/a.png?x=1#frag",
    "https://example.com./a.png",
    "https://8.8.8.8/a.png",
    "https://8.8.8.8./a.png",
    "https://[2606:4700:4700::1111]/a.png",
    "https://[::ffff:8.8.8.8]/a.png",
    "https://[64:ff9b::8.8.8.8]/a.png",
    "https://xn--bcher-kva.example/a.png",
    "https://bücher.example/a.png",
  ])("accepts %s", (url) => {
    expect(checkRemoteMediaUrl(url)).toEqual({ ok: true, url: new URL(url).href });
  });

  it.each([
    ["https://example.com\\@127.0.0.1/a.png", "https://example.com/@127.0.0.1/a.png"],
    ["HTTPS://Example.COM/a.png", "https://example.com/a.png"],
    ["https://bücher.example/a b".replace(" ", "%20"), "https://xn--bcher-kva.example/a%20b"],
    ["https://example.com/x/../a.png", "https://example.com/a.png"],
  ])("returns the canonical form the checks were made on: %s", (input, href) => {
    expect(checkRemoteMediaUrl(input)).toEqual({ ok: true, url: href });
  });

  it("returns the URL trimmed", () => {
    expect(checkRemoteMediaUrl("  https://example.com/a.png \n")).toEqual({
      ok: true,
      url: "https://example.com/a.png",
    });
  });

  it.each([
    // schemes
    "http://example.com/a.png",
    "ftp://example.com/a.png",
    "file:///etc/passwd",
    "data:image/png;base64,AAAA",
    "javascript:alert(1)",
    "//example.com/a.png",
    "https:/example.com/a.png",
    "https:\\\\example.com/a.png",
    "",
    "   ",
    // userinfo
    "https://user@example.com/a.png",
    "https://user:pass@example.com/a.png",
    "https://example.com@evil.example.com/a.png",
    // host names
    "https://intranet/x",
    "https://intranet./x",
    "https://localhost/a.png",
    "https://LOCALHOST/a.png",
    "https://localhost./a.png",
    "https://localhost../a.png",
    "https://localhost.localdomain/a.png",
    "https://app.localhost/a.png",
    "https://printer.local/a.png",
    "https://printer.local./a.png",
    "https://db.internal/a.png",
    "https://metadata.google.internal/computeMetadata/v1/",
    "https://metadata.google.internal../x",
    "https://example..com/a.png",
    "https://example.com../a.png",
    // IPv4 literals in special-use ranges
    "https://127.0.0.1/a.png",
    "https://127.0.0.1../a.png",
    "https://10.0.0.1/a.png",
    "https://172.16.0.1/a.png",
    "https://192.168.1.1/a.png",
    "https://169.254.169.254/latest/meta-data/",
    "https://100.64.0.1/a.png",
    "https://198.18.0.1/a.png",
    "https://0.0.0.0/a.png",
    "https://224.0.0.1/a.png",
    "https://240.0.0.1/a.png",
    "https://255.255.255.255/a.png",
    "https://192.0.2.1/a.png",
    "https://198.51.100.1/a.png",
    "https://203.0.113.1/a.png",
    // legacy IPv4 spellings (WHATWG URL turns them into 127.0.0.1 or 8.8.8.8)
    "https://127.1/a.png",
    "https://0177.0.0.1/a.png",
    "https://0x7f.0.0.1/a.png",
    "https://0x7f000001/a.png",
    "https://2130706433/a.png",
    "https://%31%32%37.0.0.1/a.png",
    "https://8.8.2056/a.png",
    "https://134744072/a.png",
    "https://127..0.1/a.png",
    "https://999.1.1.1/a.png",
    // IPv6 literals
    "https://[::1]/a.png",
    "https://[::]/a.png",
    "https://[fc00::1]/a.png",
    "https://[fd00::1]/a.png",
    "https://[fe80::1]/a.png",
    "https://[fec0::1]/a.png",
    "https://[ff02::1]/a.png",
    "https://[::ffff:127.0.0.1]/a.png",
    "https://[::ffff:7f00:1]/a.png",
    "https://[::ffff:169.254.169.254]/a.png",
    "https://[64:ff9b::127.0.0.1]/a.png",
    "https://[64:ff9b::a9fe:a9fe]/a.png",
    "https://[2002:7f00:1::]/a.png",
    "https://[2002:c0a8:101::1]/a.png",
    "https://[2001:db8::1]/a.png",
    "https://[::::]/a.png",
    "https://[fe80::1%25eth0]/a.png",
    "https://[1:2:3]/a.png",
    // spaces and control characters
    "https://exa\tmple.com/a.png",
    "https://example.com/a b.png",
    "https://example.com/\u0000.png",
    `https://example.com/${"a".repeat(4100)}`,
  ])("rejects %j", (url) => {
    const result = checkRemoteMediaUrl(url);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/\w/);
  });
});
