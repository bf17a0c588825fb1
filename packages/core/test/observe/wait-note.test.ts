/**
 * The `wait` channel tells of waits: a call the pacer let through at once publishes nothing
 * (an observer would drop a zero wait, and building the note costs every call), one it held
 * publishes how long.
 */
import { channel } from "node:diagnostics_channel";
import { afterEach, expect, it } from "vitest";
import { OUTBOX_CHANNELS, type WaitNote } from "../../src/observe/channels.js";
import { harness } from "../engine/support/harness.js";

const notes: WaitNote[] = [];
const record = (note: unknown) => notes.push(note as WaitNote);
afterEach(() => {
  channel(OUTBOX_CHANNELS.wait).unsubscribe(record);
  notes.length = 0;
});

it("publishes a pacing wait only for a call the pacer held", async () => {
  const { send } = harness({ rateLimits: [{ scope: "target", limit: 1, intervalMs: 1000 }] });
  channel(OUTBOX_CHANNELS.wait).subscribe(record);
  expect((await send({ text: "first" }, { to: "chat" })).ok).toBe(true);
  expect(notes).toEqual([]);
  expect((await send({ text: "second" }, { to: "chat" })).ok).toBe(true);
  expect(notes).toEqual([{ to: "chat", part: 0, attempt: 0, reason: "pacing", ms: 1000 }]);
});
