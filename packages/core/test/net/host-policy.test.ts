import { describe, expect, it } from "vitest";
import { isBlockedHostname, isBlockedUrlHost } from "../../src/net/host-policy.js";

describe("isBlockedHostname", () => {
  it.each([
    "",
    ".",
    "intranet",
    "intranet.",
    "printer",
    "localhost",
    "LOCALHOST",
    "localhost.",
    "localhost..",
    "localhost.localdomain",
    "localhost.localdomain.",
    "app.localhost",
    "printer.local",
    "printer.local.",
    "db.internal",
    "metadata.google.internal",
    "metadata.google.internal.",
    "metadata.google.internal..",
    "example..com",
    ".example.com",
    "example.com..",
  ])("blocks %j", (host) => {
    expect(isBlockedHostname(host)).toBe(true);
  });
  it.each([
    "example.com",
    "example.com.",
    "cdn.example.test",
    "EXAMPLE.COM",
    "xn--bcher-kva.example",
    "local.example.com",
    "internal.example.org",
  ])("allows %j", (host) => {
    expect(isBlockedHostname(host)).toBe(false);
  });
});

describe("isBlockedUrlHost", () => {
  it.each([
    ["[::1]", true],
    ["[::ffff:7f00:1]", true],
    ["[2606:4700::1111]", false],
    ["127.0.0.1", true],
    ["127.0.0.1.", true],
    ["127.0.0.1..", true],
    ["8.8.8.8", false],
    ["8.8.8.8.", false],
    ["example.com", false],
    ["intranet", true],
  ] as const)("%j → %j", (host, expected) => {
    expect(isBlockedUrlHost(host)).toBe(expected);
  });
});
