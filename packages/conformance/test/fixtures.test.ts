import { X509Certificate } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileTypeFromFile } from "file-type";
import { describe, expect, it } from "vitest";
import { type FixtureName, fixtureBytes, fixturePath, fixtures, fixturesDir } from "../src/fixtures.js";

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

  it("the TLS certificate covers the fixture hosts and stays valid for decades", () => {
    const cert = new X509Certificate(readFileSync(join(fixturesDir, "tls", "cert.pem")));
    expect(cert.subjectAltName).toContain("DNS:media.outbox.test");
    expect(cert.subjectAltName).toContain("DNS:decoy.outbox.test");
    expect(new Date(cert.validFrom).getFullYear()).toBeLessThanOrEqual(2000);
    expect(new Date(cert.validTo).getFullYear()).toBeGreaterThanOrEqual(2100);
  });
});
