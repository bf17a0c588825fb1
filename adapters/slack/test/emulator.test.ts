import { startSlackEmulator } from "@outbox/slack/testing";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";

const emulators: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of emulators.splice(0)) await e.close();
});

async function start(options: Parameters<typeof startSlackEmulator>[0] = {}) {
  const emulator = await startSlackEmulator({ channels: [{ id: "C1" }], ...options });
  emulators.push(emulator);
  const web = new WebClient(emulator.token, {
    slackApiUrl: emulator.slackApiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  return { emulator, web };
}

/** POST a Web API call with a JSON body (Slack accepts JSON for write methods). */
async function postJson(url: string, token: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const platformError = (error: unknown) => (error as { data: Record<string, unknown> }).data;

describe("Slack emulator", () => {
  it("accepts form bodies (WebClient) and JSON bodies alike", async () => {
    const { emulator, web } = await start();
    await web.chat.postMessage({ channel: "C1", text: "*form*" });
    const json = await postJson(`${emulator.slackApiUrl}chat.postMessage`, emulator.token, {
      channel: "C1",
      text: "json",
    });
    expect(json.body).toMatchObject({ ok: true, channel: "C1" });
    expect(emulator.observe("C1").map((m) => m.text)).toEqual(["form", "json"]);
    expect(emulator.observe("C1")[0]?.formatting).toEqual([{ kind: "bold", offset: 0, length: 4 }]);
  });

  it("answers ok:false with Slack's error strings: auth, channels, threads, text length", async () => {
    const { emulator, web } = await start({
      channels: [{ id: "C1" }, { id: "C2", member: false }, { id: "C3", archived: true }],
      revokedTokens: ["xoxb-revoked"],
    });
    const refusal = async (call: Promise<unknown>) =>
      platformError(await call.catch((e: unknown) => e)).error;
    expect(await refusal(web.chat.postMessage({ channel: "C404", text: "x" }))).toBe("channel_not_found");
    expect(await refusal(web.chat.postMessage({ channel: "C2", text: "x" }))).toBe("not_in_channel");
    expect(await refusal(web.chat.postMessage({ channel: "C3", text: "x" }))).toBe("is_archived");
    expect(await refusal(web.chat.postMessage({ channel: "C1", text: "x", thread_ts: "1.000001" }))).toBe(
      "thread_not_found",
    );
    expect(await refusal(web.chat.postMessage({ channel: "C1", text: "x".repeat(40_001) }))).toBe(
      "msg_too_long",
    );
    expect(await refusal(web.chat.postMessage({ channel: "C1", text: "" }))).toBe("no_text");
    const wrong = new WebClient("xoxb-wrong", {
      slackApiUrl: emulator.slackApiUrl,
      retryConfig: { retries: 0 },
    });
    expect(await refusal(wrong.chat.postMessage({ channel: "C1", text: "x" }))).toBe("invalid_auth");
    const revoked = new WebClient("xoxb-revoked", {
      slackApiUrl: emulator.slackApiUrl,
      retryConfig: { retries: 0 },
    });
    expect(await refusal(revoked.chat.postMessage({ channel: "C1", text: "x" }))).toBe("token_revoked");
    expect(emulator.observe()).toEqual([]);
  });

  it("checks scopes when configured and names the missing one", async () => {
    const { web } = await start({ scopes: ["files:write"] });
    const data = platformError(
      await web.chat.postMessage({ channel: "C1", text: "x" }).catch((e: unknown) => e),
    );
    expect(data).toMatchObject({ error: "missing_scope", needed: "chat:write", provided: "files:write" });
  });

  it("threads a reply under its root; a reply's ts names the root's thread", async () => {
    const { emulator, web } = await start();
    const root = emulator.seedMessage("C1", "root");
    const first = await web.chat.postMessage({ channel: "C1", text: "a", thread_ts: root });
    await web.chat.postMessage({ channel: "C1", text: "b", thread_ts: first.ts as string });
    expect(emulator.observe("C1").map((m) => [m.text, m.thread, m.replyTo])).toEqual([
      ["a", root, root],
      ["b", root, root],
    ]);
  });

  it("takes a bare WebClient filesUploadV2 (multipart upload) and stores the exact bytes", async () => {
    const { emulator, web } = await start();
    const bytes = Buffer.from("%PDF-1.4 emulator bytes");
    await web.filesUploadV2({ channel_id: "C1", file: bytes, filename: "a.pdf", initial_comment: "_doc_" });
    const [message] = emulator.observe("C1");
    expect(message).toMatchObject({
      kind: "document",
      caption: "doc",
      formatting: [{ kind: "italic", offset: 0, length: 3 }],
      fileName: "a.pdf",
      mimeType: "application/pdf",
      bytes: bytes.length,
    });
  });

  it("checks the uploaded byte count against the declared length", async () => {
    const { emulator, web } = await start();
    const { upload_url, file_id } = await web.files.getUploadURLExternal({ filename: "a.bin", length: 10 });
    expect(upload_url?.startsWith(emulator.slackApiUrl.replace("/api/", "/upload/"))).toBe(true);
    const res = await fetch(upload_url as string, { method: "POST", body: "12345" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("declared 10 bytes, received 5");
    const data = platformError(
      await web.files
        .completeUploadExternal({ files: [{ id: file_id as string }], channel_id: "C1" })
        .catch((e: unknown) => e),
    );
    expect(data.error).toBe("file_upload_failed");
  });

  it("answers 429 with Retry-After past its per-channel limit, and counts those refusals", async () => {
    let now = 0;
    const { emulator, web } = await start({ now: () => now, rateLimits: { perChannelBurst: 2 } });
    await web.chat.postMessage({ channel: "C1", text: "1" });
    await web.chat.postMessage({ channel: "C1", text: "2" });
    const error = await web.chat.postMessage({ channel: "C1", text: "3" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "slack_webapi_rate_limited_error", retryAfter: 1 });
    expect(emulator.rateLimitRefusals()).toBe(1);
    now += 1000;
    await web.chat.postMessage({ channel: "C1", text: "3" });
    emulator.inject({ kind: "rate-limit", retryAfterMs: 10 });
    await web.chat.postMessage({ channel: "C1", text: "4" }).catch(() => undefined);
    expect(emulator.rateLimitRefusals(), "injected faults are not counted").toBe(1);
    expect(emulator.observe("C1").map((m) => m.text)).toEqual(["1", "2", "3"]);
  });

  it("opens a DM with a known user only", async () => {
    const { web } = await start({ users: ["U9"] });
    const dm = await web.conversations.open({ users: "U9" });
    expect(dm.channel?.id).toBe("D9");
    await web.chat.postMessage({ channel: "D9", text: "hi" });
    const unknown = await web.conversations.open({ users: "U404" }).catch((e: unknown) => e);
    expect(platformError(unknown).error).toBe("user_not_found");
  });

  it("lists a file's share with the message ts (after the pending look-ups)", async () => {
    const { web } = await start({ pendingShares: 1 });
    const { upload_url, file_id } = await web.files.getUploadURLExternal({ filename: "a.txt", length: 2 });
    await fetch(upload_url as string, { method: "POST", body: "hi" });
    const done = await web.files.completeUploadExternal({
      files: [{ id: file_id as string }],
      channel_id: "C1",
    });
    expect(done.files?.[0]).toMatchObject({ shares: {} });
    const info = await web.files.info({ file: file_id as string });
    expect(info.file?.shares?.public?.C1?.[0]?.ts).toMatch(/^\d+\.\d{6}$/);
  });
});
