/**
 * The fixture servers' TLS identity, made when the process first needs it: a fresh P-256 key
 * and a self-signed certificate for the fixture host names, encoded here in DER with
 * `node:crypto` (no dependency, no openssl). Nothing is written to disk and no private key
 * ships in the package; only a client given this certificate (`ConformanceMedia.ca`, the
 * policy's dispatcher) trusts the servers.
 */
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

/** Host names (and 127.0.0.1) the certificate covers. */
const HOSTS = ["media.outbox.test", "decoy.outbox.test", "localhost"];

/** A certificate and its key, PEM. */
export interface FixtureTls {
  /** Self-signed certificate (also the CA to trust). */
  cert: string;
  /** PKCS#8 private key. */
  key: string;
}

let made: FixtureTls | undefined;

/** The process-wide fixture certificate and key, made on first call. */
export function fixtureTls(): FixtureTls {
  made ??= makeSelfSigned(HOSTS[0]!);
  return made;
}

function makeSelfSigned(commonName: string): FixtureTls {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ecdsaWithSha256 = seq(oid([1, 2, 840, 10045, 4, 3, 2]));
  const name = seq(set(seq(oid([2, 5, 4, 3]), tlv(0x0c, Buffer.from(commonName)))));
  const altNames = seq(
    ...HOSTS.map((host) => tlv(0x82, Buffer.from(host))),
    tlv(0x87, Buffer.from([127, 0, 0, 1])),
  );
  const extensions = seq(
    seq(oid([2, 5, 29, 17]), tlv(0x04, altNames)),
    seq(oid([2, 5, 29, 19]), tlv(0x01, Buffer.from([0xff])), tlv(0x04, seq(tlv(0x01, Buffer.from([0xff]))))),
  );
  const serial = Buffer.concat([Buffer.from([0x01]), randomBytes(8)]);
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ecdsaWithSha256,
    name,
    seq(utcTime("000101000000Z"), utcTime("491231235959Z")),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, extensions),
  );
  const signature = sign("sha256", tbs, privateKey);
  const der = seq(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const base64 = der.toString("base64").replace(/.{1,64}/g, "$&\n");
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${base64}-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

// --- DER ---

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

function seq(...items: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

function set(...items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

function utcTime(value: string): Buffer {
  return tlv(0x17, Buffer.from(value, "ascii"));
}

function oid(arcs: number[]): Buffer {
  const bytes = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const base128 = [arc & 0x7f];
    for (let rest = arc >> 7; rest > 0; rest >>= 7) base128.unshift((rest & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}
