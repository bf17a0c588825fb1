/**
 * The emulator is strict where the spec is and answers as Synapse does: raw HTTP against it,
 * without the adapter.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_ROOM, type MatrixEmulator, startMatrixEmulator } from "../src/testing/index.js";

let emulator: MatrixEmulator;
beforeEach(async () => {
  emulator = await startMatrixEmulator({ rateLimit: false });
});
afterEach(() => emulator.close());

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${emulator.homeserver}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${emulator.accessToken}`,
      "content-type": "application/json",
      ...headers,
    },
    ...(body === undefined
      ? {}
      : { body: typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const room = encodeURIComponent(DEFAULT_ROOM);
const send = (txn: string, content: unknown) =>
  call("PUT", `/_matrix/client/v3/rooms/${room}/send/m.room.message/${txn}`, content);
const text = (body: string) => ({ msgtype: "m.text", body });

describe("the Matrix emulator", () => {
  it("answers a repeated txnId with the same event id and stores no second event", async () => {
    const first = await send("t1", text("hello"));
    const again = await send("t1", text("something else"));
    expect(again.json.event_id).toBe(first.json.event_id);
    expect(emulator.observe().map((m) => m.text)).toEqual(["hello"]);
  });

  it("refuses HTML outside the spec's allow-list, naming the tag or attribute", async () => {
    const html = (formatted_body: string) => ({
      ...text("x"),
      format: "org.matrix.custom.html",
      formatted_body,
    });
    expect((await send("a", html("<script>x</script>"))).json).toMatchObject({
      errcode: "M_BAD_JSON",
      error: expect.stringMatching(/<script>/),
    });
    expect((await send("b", html('<span class="spoiler">x</span>'))).json.error).toMatch(
      /attribute class of <span>/,
    );
    expect((await send("c", html('<a href="javascript:alert(1)">x</a>'))).json.error).toMatch(/link scheme/);
    expect((await send("d", html("<p><strong>x</strong></p>"))).status).toBe(200);
  });

  it("decodes what Element shows: list markers, spans, lines, headings", async () => {
    await send("h", {
      ...text("fallback"),
      format: "org.matrix.custom.html",
      formatted_body:
        '<h2>Title</h2><ol start="3"><li>a<ul><li><em>b</em></li></ul></li></ol><p>x<br>y <span data-mx-spoiler>z</span></p>',
    });
    const [shown] = emulator.observe();
    expect(shown?.text).toBe("Title\n\n3. a\n  • b\n\nx\ny z");
    expect(shown?.lines?.map((l) => l.kind)).toEqual([
      "heading",
      "blank",
      "item",
      "item",
      "blank",
      "text",
      "text",
    ]);
    expect(shown?.formatting).toEqual([
      { kind: "italic", offset: 16, length: 1 },
      { kind: "spoiler", offset: 23, length: 1 },
    ]);
  });

  it("checks info against the uploaded bytes and the url against its uploads", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000002000000030806000000", "hex");
    const upload = await call("POST", "/_matrix/media/v3/upload?filename=a.png", png, {
      "content-type": "image/png",
    });
    const url = upload.json.content_uri as string;
    const image = (info: Record<string, unknown>) =>
      send(`i${JSON.stringify(info).length}`, { msgtype: "m.image", body: "a.png", url, info });
    expect((await image({ mimetype: "image/png", size: png.length + 1 })).json.error).toMatch(/info.size/);
    expect((await image({ mimetype: "image/jpeg", size: png.length })).json.error).toMatch(
      /does not match the uploaded bytes/,
    );
    expect((await image({ mimetype: "image/png", size: png.length, w: 3 })).json.error).toMatch(
      /info.w 3 is not the image's 2/,
    );
    expect((await image({ mimetype: "image/png", size: png.length, w: 2, h: 3 })).status).toBe(200);
    const unknown = await send("u", {
      msgtype: "m.image",
      body: "a.png",
      url: "mxc://outbox.test/nope",
      info: { mimetype: "image/png", size: 1 },
    });
    expect(unknown.json.error).toMatch(/names no upload/);
  });

  it("stores a reply to an event it does not hold, as Synapse does", async () => {
    const reply = await send("r", {
      ...text("re"),
      "m.relates_to": { "m.in_reply_to": { event_id: "$unknown" } },
    });
    expect(reply.status).toBe(200);
    expect(emulator.observe()[0]?.replyTo).toBe("$unknown");
  });

  it("answers 429 M_LIMIT_EXCEEDED with retry_after_ms past rc_message's burst, and counts it", async () => {
    await emulator.close();
    emulator = await startMatrixEmulator({ rateLimit: { perSecond: 1, burst: 2 }, now: () => 0 });
    await send("1", text("one"));
    await send("2", text("two"));
    const limited = await send("3", text("three"));
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({
      errcode: "M_LIMIT_EXCEEDED",
      error: "Too Many Requests",
      retry_after_ms: 1000,
    });
    expect(emulator.rateLimitRefusals()).toBe(1);
  });

  it("refuses an event over 65,536 bytes with 413 M_TOO_LARGE", async () => {
    const big = await send("big", text("x".repeat(65_000)));
    expect(big.status).toBe(413);
    expect(big.json.errcode).toBe("M_TOO_LARGE");
  });

  it("answers M_UNKNOWN_TOKEN for a wrong token and M_FORBIDDEN for a room the bot is not in", async () => {
    const wrong = await call("PUT", `/_matrix/client/v3/rooms/${room}/send/m.room.message/x`, text("x"), {
      authorization: "Bearer nope",
    });
    expect(wrong).toMatchObject({ status: 401, json: { errcode: "M_UNKNOWN_TOKEN" } });
    const other = await call(
      "PUT",
      "/_matrix/client/v3/rooms/!other%3Aoutbox.test/send/m.room.message/y",
      text("y"),
    );
    expect(other).toMatchObject({ status: 403, json: { errcode: "M_FORBIDDEN" } });
  });
});
