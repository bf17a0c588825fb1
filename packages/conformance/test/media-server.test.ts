import { get } from "node:https";
import type { LookupFunction } from "node:net";
import { connect } from "node:tls";
import { describe, expect, it } from "vitest";
import { fixtureSha256, sha256Hex } from "../src/fixtures.js";
import { conformanceMedia, DECOY_HOST, MEDIA_HOST } from "../src/media-server.js";

describe("conformanceMedia", () => {
  it("is one lazily started singleton", async () => {
    expect(await conformanceMedia()).toBe(await conformanceMedia());
  });

  it("serves every fixture over https to a client that trusts the fixture certificate", async () => {
    const media = await conformanceMedia();
    const lookup = media.policy.lookup as LookupFunction;
    const { status, type, body } = await new Promise<{ status?: number; type?: string; body: Buffer }>(
      (done, fail) => {
        get(media.url("ogg", 3), { ca: media.ca, lookup }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            done({
              status: response.statusCode,
              type: response.headers["content-type"],
              body: Buffer.concat(chunks),
            }),
          );
        }).on("error", fail);
      },
    );
    expect(status).toBe(200);
    expect(type).toBe("audio/ogg");
    expect(sha256Hex(body)).toBe(fixtureSha256("ogg"));
    expect(media.served()).toContain("/voice.ogg?n=3");
  });

  it("allows only the media host; the lookup maps both fixture hosts to 127.0.0.1 and fails others", async () => {
    const media = await conformanceMedia();
    expect(media.policy.allowHosts).toEqual([MEDIA_HOST]);
    const resolve = (host: string) =>
      new Promise<string>((done, fail) =>
        media.policy.lookup?.(host, {}, (error, address) => (error ? fail(error) : done(String(address)))),
      );
    expect(await resolve(DECOY_HOST)).toBe("127.0.0.1");
    expect(await resolve(MEDIA_HOST)).toBe("127.0.0.1");
    await expect(resolve("example.com")).rejects.toThrow(/ENOTFOUND/);
  });

  it("the decoy counts every connection, even one that never completes a request", async () => {
    const media = await conformanceMedia();
    const before = media.decoy.connections();
    const port = Number(new URL(media.decoy.blockedUrls[0] ?? "").port);
    await new Promise<void>((done) => {
      const socket = connect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
        socket.destroy();
        done();
      });
    });
    expect(media.decoy.connections()).toBe(before + 1);
  });

  it("blocked URLs all point at the decoy, and the outside file lies outside localRoots", async () => {
    const media = await conformanceMedia();
    const decoyPort = new URL(media.decoy.blockedUrls[0] ?? "").port;
    for (const url of media.decoy.blockedUrls) expect(new URL(url).port).toBe(decoyPort);
    for (const root of media.policy.localRoots ?? []) expect(media.outsideFile.startsWith(root)).toBe(false);
  });
});
