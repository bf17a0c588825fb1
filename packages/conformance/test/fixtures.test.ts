import { createPrivateKey, X509Certificate } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileTypeFromFile } from "file-type";
import { describe, expect, it } from "vitest";
import { type FixtureName, fixtureBytes, fixturePath, fixtures, fixturesDir } from "../src/fixtures.js";
import { fixtureTls } from "../src/tls.js";

const names = Object.keys(fixtures) as FixtureName[];

/** The granule position of the last OGG page: samples at 48 kHz for Opus. */
function lastGranule(bytes: Buffer): bigint {
  const at = bytes.lastIndexOf("OggS");
  return bytes.readBigUInt64LE(at + 6);
}

describe("fixtures", () => {
  it.each(names)("%s is sniffed by file-type as its declared MIME type and stays tiny", async (name) => {
    const sniffed = await fileTypeFromFile(fixturePath(name));
    expect(sniffed?.mime.split(";")[0]).toBe(fixtures[name].mimeType);
    expect(statSync(fixturePath(name)).size).toBeLessThan(4096);
  });

  it("the OGG/Opus voice note has an OpusHead and a final granule giving its duration", () => {
    const bytes = fixtureBytes("ogg");
    expect(bytes.includes("OpusHead")).toBe(true);
    const preSkip = bytes.readUInt16LE(bytes.indexOf("OpusHead") + 10);
    const durationMs = Number(lastGranule(bytes) - BigInt(preSkip)) / 48;
    expect(durationMs).toBeGreaterThan(400);
    expect(durationMs).toBeLessThan(600);
  });

  it("the TLS certificate is made at run time, covers the fixture hosts and is valid now", () => {
    const cert = new X509Certificate(fixtureTls().cert);
    expect(cert.subjectAltName).toContain("DNS:media.outbox.test");
    expect(cert.subjectAltName).toContain("DNS:decoy.outbox.test");
    expect(cert.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(cert.ca).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(fixtureTls().key))).toBe(true);
    expect(new Date(cert.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now());
    expect(existsSync(join(fixturesDir, "tls")), "no key is committed or shipped").toBe(false);
  });
});
