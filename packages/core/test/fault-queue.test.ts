import { describe, expect, it } from "vitest";
import { createFaultQueue, FAULT_KINDS, type Fault, UnknownFaultError } from "../src/testing/index.js";

/** The methods the queue's emulator answers. */
const METHODS = [
  "sendMessage",
  "files.getUploadURLExternal",
  "files.completeUploadExternal",
  "send",
  "other",
];

describe("createFaultQueue", () => {
  it("serves each fault for its `times` calls (default 1), in the order injected, then nothing", () => {
    const faults = createFaultQueue(METHODS);
    expect(faults.next()).toBeUndefined();
    faults.inject({ kind: "server-error", status: 502, times: 2 });
    faults.inject({ kind: "reset" });
    faults.inject({ kind: "reject", description: "Bad Request: no" });
    expect(faults.next()).toEqual({ kind: "server-error", status: 502, times: 2 });
    expect(faults.next()).toEqual({ kind: "server-error", status: 502, times: 2 });
    expect(faults.next()).toEqual({ kind: "reset" });
    expect(faults.next()).toEqual({ kind: "reject", description: "Bad Request: no" });
    expect(faults.next()).toBeUndefined();
  });
});

describe("createFaultQueue targeting", () => {
  it("hits only requests to the fault's method, after its `skip`, leaving other faults in order", () => {
    const faults = createFaultQueue(METHODS);
    faults.inject({ kind: "reset-after-processed", method: "files.completeUploadExternal" });
    faults.inject({ kind: "server-error", status: 503, method: "sendMessage", skip: 1 });
    expect(faults.next("files.getUploadURLExternal")).toBeUndefined();
    expect(faults.next("SENDMESSAGE")).toBeUndefined();
    expect(faults.next("sendMessage")).toEqual({
      kind: "server-error",
      status: 503,
      method: "sendMessage",
      skip: 1,
    });
    expect(faults.next("files.completeUploadExternal")?.kind).toBe("reset-after-processed");
    expect(faults.next("files.completeUploadExternal")).toBeUndefined();
  });

  it("arms a reset-before-write by the answer to its method and spends it on connections, not requests", () => {
    const faults = createFaultQueue(METHODS);
    faults.inject({ kind: "reset-before-write", method: "sendMessage", skip: 1 });
    expect(faults.refusing()).toBe(true);
    expect(faults.next("sendMessage")).toBeUndefined();
    expect(faults.refuse()).toBe(false);
    faults.answered("sendMessage"); // skipped
    expect(faults.refuse()).toBe(false);
    faults.answered("sendPhoto"); // not its method
    expect(faults.refuse()).toBe(false);
    faults.answered("sendMessage");
    expect(faults.refuse()).toBe(true);
    expect(faults.refuse()).toBe(false);
    expect(faults.refusing()).toBe(false);
  });

  it("strikes the next connections at once when a reset-before-write names no method", () => {
    const faults = createFaultQueue(METHODS);
    faults.inject({ kind: "reset-before-write", times: 2 });
    expect([faults.refuse(), faults.refuse(), faults.refuse()]).toEqual([true, true, false]);
  });
});

describe("createFaultQueue refuses what it could never apply", () => {
  it("throws UnknownFaultError at inject for a method the emulator does not answer, or an unknown kind", () => {
    const faults = createFaultQueue(METHODS);
    const wrong = () => faults.inject({ kind: "reset-after-processed", method: "PUT /rooms/:id/send" });
    expect(wrong).toThrow(UnknownFaultError);
    expect(wrong).toThrow(/no method "PUT \/rooms\/:id\/send".*sendMessage, files\.getUploadURLExternal/);
    expect(() => faults.inject({ kind: "drop-everything" } as unknown as Fault)).toThrow(
      /unknown fault kind "drop-everything"/,
    );
    // Case does not matter, and nothing refused was queued.
    faults.inject({ kind: "reset", method: "SENDMESSAGE" });
    expect(faults.next("files.getUploadURLExternal")).toBeUndefined();
    expect(faults.next("sendMessage")).toEqual({ kind: "reset", method: "SENDMESSAGE" });
    expect(FAULT_KINDS).toHaveLength(7);
  });
});
