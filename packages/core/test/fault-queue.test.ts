import { describe, expect, it } from "vitest";
import { createFaultQueue } from "../src/index.js";

describe("createFaultQueue", () => {
  it("serves each fault for its `times` calls (default 1), in the order injected, then nothing", () => {
    const faults = createFaultQueue();
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
    const faults = createFaultQueue();
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
    const faults = createFaultQueue();
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
    const faults = createFaultQueue();
    faults.inject({ kind: "reset-before-write", times: 2 });
    expect([faults.refuse(), faults.refuse(), faults.refuse()]).toEqual([true, true, false]);
  });
});
