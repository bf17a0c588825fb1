import { describe, expect, it } from "vitest";
import { createManualClock } from "../../src/engine/clock.js";

describe("createManualClock", () => {
  it("names when the earliest sleeper wakes, and nothing once none waits", async () => {
    const clock = createManualClock(100);
    expect(clock.next).toBeUndefined();
    const late = clock.sleep(500);
    const early = clock.sleep(200);
    const aborted = new AbortController();
    const earliest = clock.sleep(50, aborted.signal).catch(() => "aborted");
    expect(clock.next).toBe(150);
    aborted.abort();
    expect(await earliest).toBe("aborted");
    expect(clock.next).toBe(300);
    await clock.advance(200);
    await early;
    expect(clock.next).toBe(600);
    await clock.advance(300);
    await late;
    expect(clock.next).toBeUndefined();
  });
});
