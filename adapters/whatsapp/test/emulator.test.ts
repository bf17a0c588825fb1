/**
 * The emulator is as strict as the Cloud API: Graph's error envelope and codes, Bearer auth,
 * the allowed list of a test number, the 24-hour window on an injected clock, media checked
 * against their bytes and per-kind rules, the pair rate and throughput limits.
 */
import { fixtureBytes } from "@outbox/conformance";
import { afterEach, describe, expect, it } from "vitest";
import {
  startWhatsAppEmulator,
  type WhatsAppEmulator,
  type WhatsAppEmulatorOptions,
} from "../src/testing/index.js";

const TO = "15550001111";

/** A Graph answer, success or error (each test reads the side it expects). */
interface Answer {
  id: string;
  contacts: unknown;
  messages: Array<{ id: string }>;
  error: { code: number; message: string; type: string; fbtrace_id: string; error_data: { details: string } };
}
const open: WhatsAppEmulator[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function emulator(options: WhatsAppEmulatorOptions = {}) {
  const e = await startWhatsAppEmulator({ limits: false, ...options });
  open.push(e);
  e.seedMessage(TO, "hello");
  return e;
}

async function post(e: WhatsAppEmulator, body: unknown, token = e.token) {
  const res = await fetch(`${e.graphApiUrl}/v24.0/${e.phoneNumberId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

/** A media message to {@link TO} of `type` with the media object `object`. */
const media = (type: string, object: unknown) => ({
  messaging_product: "whatsapp",
  to: TO,
  type,
  [type]: object,
});

async function upload(e: WhatsAppEmulator, bytes: Buffer, type: string, fileName = "file") {
  const form = new FormData();
  form.set("messaging_product", "whatsapp");
  form.set("type", type);
  form.set("file", new Blob([bytes], { type }), fileName);
  const res = await fetch(`${e.graphApiUrl}/v24.0/${e.phoneNumberId}/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${e.token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

const text = (body: string, extra: Record<string, unknown> = {}) => ({
  messaging_product: "whatsapp",
  to: TO,
  type: "text",
  text: { body },
  ...extra,
});

describe("WhatsApp emulator", () => {
  it("answers a text message with the contact and a wamid, and shows it", async () => {
    const e = await emulator();
    const { status, body } = await post(e, text("*hi* there"));
    expect(status).toBe(200);
    expect(body.contacts).toEqual([{ input: TO, wa_id: TO }]);
    expect(body.messages[0]?.id).toMatch(/^wamid\./);
    expect(e.observe(TO)).toEqual([
      { kind: "text", text: "hi there", formatting: [{ kind: "bold", offset: 0, length: 2 }] },
    ]);
  });

  it("refuses a missing or wrong token with 190 and Graph's envelope", async () => {
    const e = await emulator();
    const { status, body } = await post(e, text("x"), "EAAwrong");
    expect(status).toBe(401);
    expect(body.error).toMatchObject({
      code: 190,
      type: "OAuthException",
      message: expect.stringMatching(/^\(#190\)/),
    });
    expect(body.error.fbtrace_id).toMatch(/\S/);
  });

  it("refuses a recipient outside a test number's allowed list (131030)", async () => {
    const e = await emulator({ allowedRecipients: ["+1 555 000 2222"] });
    const { body } = await post(e, text("x"));
    expect(body.error.code).toBe(131030);
  });

  it("keeps the 24-hour window per person on the injected clock (131047 after it, open again when they write)", async () => {
    let now = 1_000_000;
    const e = await emulator({ now: () => now });
    expect((await post(e, text("in the window"))).status).toBe(200);
    now += 24 * 60 * 60 * 1000 + 1;
    expect((await post(e, text("too late"))).body.error.code).toBe(131047);
    expect((await post(e, { ...text("never wrote"), to: "15559990000" })).body.error.code).toBe(131047);
    e.seedMessage(TO, "back");
    expect((await post(e, text("answered"))).status).toBe(200);
  });

  it("refuses a body over 4,096 characters with 100 naming the parameter", async () => {
    const e = await emulator();
    const { body } = await post(e, text("x".repeat(4097)));
    expect(body.error).toMatchObject({ code: 100 });
    expect(body.error.error_data.details).toContain("text['body']");
    expect((await post(e, text("x".repeat(4096)))).status).toBe(200);
  });

  it("quotes a known message and drops the quote of an unknown one (delivered without it)", async () => {
    const e = await emulator();
    const first = (await post(e, text("first"))).body.messages[0]?.id as string;
    await post(e, text("reply", { context: { message_id: first } }));
    await post(e, text("dangling", { context: { message_id: "wamid.unknown" } }));
    expect(e.observe(TO).map((m) => m.replyTo)).toEqual([undefined, first, undefined]);
  });

  it("checks uploads against their bytes: an unsupported type is 100 listing the types, a wrong declaration 131053", async () => {
    const e = await emulator();
    const gif = await upload(e, fixtureBytes("gif"), "image/gif");
    expect(gif.body.error.code).toBe(100);
    expect(gif.body.error.error_data.details).toMatch(
      /image\/jpeg, image\/png.*Received file of type 'image\/gif'/,
    );
    const lie = await upload(e, fixtureBytes("jpeg"), "image/png");
    expect(lie.body.error).toMatchObject({ code: 131053 });
    const png = await upload(e, fixtureBytes("png"), "image/png", "a.png");
    expect(png.body.id).toMatch(/^\d+$/);
  });

  it("checks each message type's media rules: type, voice on Ogg/Opus only, no caption on audio", async () => {
    const e = await emulator();
    const pdf = (await upload(e, fixtureBytes("pdf"), "application/pdf")).body.id;
    const mp3 = (await upload(e, fixtureBytes("mp3"), "audio/mpeg")).body.id;
    const ogg = (await upload(e, fixtureBytes("ogg"), "audio/ogg")).body.id;
    expect((await post(e, media("image", { id: pdf }))).body.error.code).toBe(131053);
    expect((await post(e, media("audio", { id: mp3, voice: true }))).body.error.code).toBe(100);
    expect((await post(e, media("audio", { id: mp3, caption: "no" }))).body.error.code).toBe(100);
    expect((await post(e, media("audio", { id: ogg, voice: true }))).status).toBe(200);
    expect((await post(e, media("document", { id: pdf, caption: "*doc*", filename: "r.pdf" }))).status).toBe(
      200,
    );
    expect(e.observe(TO).map((m) => [m.kind, m.caption, m.fileName])).toEqual([
      ["voice", undefined, "file"],
      ["document", "doc", "r.pdf"],
    ]);
  });

  it("takes media by an https link only (never with an id), records it and fetches nothing", async () => {
    const e = await emulator();
    const pdf = (await upload(e, fixtureBytes("pdf"), "application/pdf")).body.id;
    const refused = [
      { link: "http://example.com/a.jpg" },
      { link: "/a.jpg" },
      { link: 42 },
      { link: "https://example.com/a.pdf", id: pdf },
    ];
    for (const object of refused) expect((await post(e, media("image", object))).body.error.code).toBe(100);
    // Fetching it would fail (no network): a link is recorded, not fetched.
    const link = "https://media.invalid/files/Q3%20report.pdf";
    expect((await post(e, media("document", { link, caption: "*Q3*" }))).status).toBe(200);
    expect(e.history(TO).at(-1)?.link).toBe(link);
    expect(e.observe(TO)).toEqual([
      expect.objectContaining({ kind: "document", caption: "Q3", fileName: "Q3 report.pdf" }),
    ]);
  });

  it("answers the pair rate limit (131056) and the throughput (130429) with 429s and counts them", async () => {
    let now = 0;
    const e = await emulator({
      limits: { pairBurst: 2, pairIntervalMs: 6000, throughputPerSecond: 3 },
      now: () => now,
    });
    e.seedMessage("15550003333", "hi");
    expect((await post(e, text("1"))).status).toBe(200);
    expect((await post(e, text("2"))).status).toBe(200);
    const pair = await post(e, text("3"));
    expect([pair.status, pair.body.error.code]).toEqual([429, 131056]);
    const other = await post(e, { ...text("4"), to: "15550003333" });
    expect([other.status, other.body.error.code]).toEqual([429, 130429]);
    now += 6000;
    expect((await post(e, text("5"))).status).toBe(200);
    expect(e.rateLimitRefusals()).toBe(2);
  });

  it("applies injected faults: a reject is a 100 with the description", async () => {
    const e = await emulator();
    e.inject({ kind: "reject", description: "Bad Request: nope" });
    const { status, body } = await post(e, text("x"));
    expect([status, body.error.code, body.error.error_data.details]).toEqual([400, 100, "Bad Request: nope"]);
  });

  it("applies connection faults to the method named: an answer dropped after processing, a connection reset before the request", async () => {
    const e = await emulator();
    e.inject({ kind: "reset-after-processed", method: "messages" });
    await expect(post(e, text("stored, answer lost"))).rejects.toThrow();
    e.inject({ kind: "reset-before-write" });
    await expect(post(e, text("never arrives"))).rejects.toThrow();
    expect((await post(e, text("after"))).status).toBe(200);
    expect(e.refusedConnections()).toBe(1);
    expect(e.observe(TO).map((m) => m.text)).toEqual(["stored, answer lost", "after"]);
  });
});
