import { describe, expect, it } from "vitest";
import { isBlockedHostname } from "../../src/net/host-policy.js";

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
