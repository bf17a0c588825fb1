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
