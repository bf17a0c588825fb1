import { describe, expect, it } from "vitest";
import type { DeliveryJournal, DeliveryStore } from "../../src/adapter/types.js";
import { invisibleFailure } from "../../src/engine/retry.js";
import {
  AgentRunError,
  AuthError,
  MediaError,
  type MediaErrorReason,
  type OutboxError,
  PayloadError,
  PlatformError,
  RateLimitedError,
  StoreError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "../../src/errors/errors.js";
import { failureEntry } from "../../src/errors/failure-entry.js";
import { harness } from "./support/harness.js";

const to = { to: "chat1" };
const small = { text: { maxLength: 12, format: "x" } };
const text = "one one\n\ntwo two\n\nthree three\n\nfour four";
const refused = () =>
  new TransportError("Telegram sendMessage: connect ECONNREFUSED 127.0.0.1:9", { ambiguous: false });

describe("failure entries", () => {
  it("fail fast: once the platform refuses connections, the rest of the plan fails at once, each part named", async () => {
    const { send, transport, clock } = harness(small);
    transport.behave(() => {
      throw refused();
    });
    const receipt = await send({ text }, to, { idempotencyKey: "down" });
    // One retry cycle (1 try + 3 retries over 0.5 + 1 + 2 s), not one per part (16 calls, 14 s).
    expect(transport.calls).toHaveLength(4);
    expect(clock.now()).toBe(3_500);
    expect(
      receipt.failures.map((entry) => [entry.part, entry.content, entry.retryable, entry.ambiguous]),
    ).toEqual([
      [0, 'text "one one"', true, false],
      [1, 'text "two two"', true, false],
      [2, 'text "three three"', true, false],
      [3, 'text "four four"', true, false],
    ]);
    expect(receipt.failures[1]?.error.message).toMatch(
      /^not attempted: the platform was unreachable \(Telegram sendMessage/,
    );
    expect(receipt.failures[0]?.action).toMatch(
      /could not be reached \(nothing was sent\): check the API URL/,
    );

    // The documented resend: the same payload and key once the platform is back sends everything, once.
    transport.behave(() => undefined);
    const again = await send({ text }, to, { idempotencyKey: "down" });
    expect(again.ok).toBe(true);
    expect(transport.delivered()).toHaveLength(4);
  });

  it("a journal that cannot be saved is named as the store, not as an unreachable platform", async () => {
    const saved = new Map<string, DeliveryJournal>();
    // A write-ahead store whose every `sending` mark fails (Redis refusing writes, a full disk).
    const store: DeliveryStore = {
      writeAhead: true,
      get: async (key) => structuredClone(saved.get(key)),
      set: async (key, journal) => {
        if (journal.sending !== undefined)
          throw new Error("OOM command not allowed when used memory > 'maxmemory'");
        saved.set(key, structuredClone(journal));
      },
    };
    const { send, transport } = harness(small, { store });
    const receipt = await send({ text }, to, { idempotencyKey: "journal" });
    expect(transport.calls).toHaveLength(0);
    expect(receipt.failures.map((entry) => [entry.part, entry.error.constructor, entry.retryable])).toEqual([
      [0, StoreError, true],
      [1, StoreError, true],
      [2, StoreError, true],
      [3, StoreError, true],
    ]);
    expect(receipt.failures[0]?.error.message).toMatch(
      /^the delivery journal could not be saved .*OOM command/,
    );
    expect(receipt.failures[1]?.error.message).toMatch(
      /^not attempted: Outbox's store failed \(the delivery journal/,
    );
    for (const entry of receipt.failures) {
      expect(entry.action).toMatch(
        /^Outbox's own store failed .* the platform is not at fault: check the store/,
      );
      expect(`${entry.error.message} ${entry.action}`).not.toMatch(/unreachable|could not be reached/);
    }
  });

  it("a 5xx is ambiguous: not retryable, and the action says to check before resending", async () => {
    const { send, transport } = harness();
    transport.behave(() => {
      throw new PlatformError("Telegram sendMessage failed (502): Bad Gateway", {
        method: "sendMessage",
        status: 502,
        description: "Bad Gateway",
      });
    });
    const receipt = await send(
      { text: "Revenue grew 12% on a token=123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi" },
      to,
    );
    expect(receipt.failures).toEqual([
      {
        part: 0,
        error: expect.any(PlatformError),
        content: expect.stringMatching(/^text "Revenue grew 12% on a token=/),
        ambiguous: true,
        retryable: false,
        action: expect.stringMatching(
          /may have been delivered \(the platform answered 502\): look in the chat/,
        ),
      },
    ]);
    expect(receipt.failures[0]?.content).not.toContain("ABCDEFGHIJKLMNOPQRSTUVWXYZ");
  });

  const media = (reason: MediaErrorReason) => new MediaError(reason, "m", { ref: "/tmp/x.png" });
  const everyClass: Array<[string, OutboxError, RegExp]> = [
    ["payload", new PayloadError("bad"), /fix the input/],
    ["rate limit", new RateLimitedError("slow", 30_000), /wait 30 s/],
    ["auth", new AuthError("no"), /fix its token, scopes or permissions in this chat/],
    // A missing permission is an AuthError too (Matrix membership, Discord 50013): the action may not blame the token alone.
    [
      "permission",
      new AuthError("Matrix send failed (403 M_FORBIDDEN); invite the bot's user to room !r"),
      /permissions in this chat as the message says/,
    ],
    ["chat", new TargetNotFoundError("no", "chat"), /check target\.to/],
    ["thread", new TargetNotFoundError("no", "thread"), /check target\.thread/],
    ["reply", new TargetNotFoundError("no", "reply"), /send without replyToId/],
    ["message", new TargetNotFoundError("no", "message"), /send a new one/],
    [
      "4xx",
      new PlatformError("no", { method: "m", status: 400, description: "d" }),
      /fix what its description says/,
    ],
    [
      "5xx",
      new PlatformError("no", { method: "m", status: 503, description: "d" }),
      /may have been delivered/,
    ],
    ["refused", refused(), /could not be reached/],
    ["reset", new TransportError("reset", { ambiguous: true }), /may have been delivered/],
    ["unsupported", new UnsupportedFeatureError("replies", "no"), /has no replies/],
    ["blocked", media("blocked"), /media\.localRoots/],
    ["too large", media("too-large"), /smaller file/],
    ["not found", media("not-found"), /check the path/],
    ["fetch failed", media("fetch-failed"), /check that the URL answers/],
    ["type", media("unsupported-type"), /as a document/],
    [
      "agent",
      new AgentRunError("agent-error", "x", { text: "", mediaUrls: [], media: 0 }),
      /rerun the agent/,
    ],
    ["aborted", new AgentRunError("aborted", "x", { text: "", mediaUrls: [], media: 0 }), /was aborted/],
    [
      "invisible",
      invisibleFailure(new PlatformError("no", { method: "upload", status: 503, description: "d" })),
      /posts nothing visible/,
    ],
  ];
  it.each(everyClass)("every error class says what to do: %s", (_name, error, action) => {
    expect(failureEntry(0, error, undefined).action).toMatch(action);
  });

  // Refusals as core and the adapters word them, with the claim their action must not make.
  const refusals: Array<[string, OutboxError, RegExp, RegExp]> = [
    [
      "an encrypted Matrix room",
      new UnsupportedFeatureError(
        "encryption",
        "Matrix room !r:x is end-to-end encrypted (m.megolm.v1.aes-sha2) and Outbox does not encrypt: its members would see the reply marked as unencrypted. Use an unencrypted room, or set allowUnencryptedInEncryptedRooms: true to send plaintext anyway.",
      ),
      /end-to-end encrypted and Outbox does not encrypt/,
      /has no encryption|out of the payload/,
    ],
    [
      "a kind taken in no form",
      new UnsupportedFeatureError("media", "the platform does not accept audio"),
      /this kind of file in no form/,
      /has no media/,
    ],
    [
      "a thread where there are none",
      new UnsupportedFeatureError("threads", "whatsapp has no threads; refusing to post outside thread 7"),
      /send without target\.thread/,
      /payload/,
    ],
    [
      "a voice note that cannot be decoded",
      new UnsupportedFeatureError(
        "voice",
        "note.ogg could not be decoded as OGG/Opus for the voice message's waveform (bad header)",
      ),
      /without audioAsVoice/,
      /has no voice/,
    ],
    [
      "an album without sendAlbum",
      new UnsupportedFeatureError("album", "the transport has no sendAlbum"),
      /album: null/,
      /platform has no album/,
    ],
  ];
  it.each(refusals)("a refusal's action agrees with its message: %s", (_name, error, says, never) => {
    const { action } = failureEntry(0, error, undefined);
    expect(action).toMatch(says);
    expect(action).not.toMatch(never);
  });

  it.each([...everyClass, ...refusals].map(([name, error]) => [name, error] as const))(
    "whether it may have been delivered, the action says as the entry does: %s",
    (_name, error) => {
      const entry = failureEntry(0, error, undefined);
      expect(/may have been delivered/.test(entry.action ?? "")).toBe(entry.ambiguous);
      if (entry.ambiguous) expect(entry.action).not.toMatch(/nothing was (sent|delivered)/);
      // A failure that can pass is answered with a resend of what did not go.
      if (entry.retryable) expect(entry.action).toMatch(/resend/);
    },
  );
});
