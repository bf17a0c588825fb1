import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authed, createEmulatedChannel, readEvents, type WebEmulatedChannel } from "./support.js";

let channel: WebEmulatedChannel;
beforeEach(async () => {
  channel = await createEmulatedChannel();
});
afterEach(async () => {
  await channel.close();
});

/** Ids of the messages the events carry. */
const messageIds = (events: Array<{ data: string }>) =>
  events.map((event) => JSON.parse(event.data).id as string);

describe("the event stream", () => {
  it("replays every event after Last-Event-ID, each with its id:, then goes live", async () => {
    const sent: string[] = [];
    for (const text of ["one", "two", "three"]) {
      const receipt = await channel.adapter.send({ text }, channel.target);
      sent.push(receipt.messages[0]?.id as string);
    }
    const all = await readEvents(await authed(channel, "events"), 4);
    expect(messageIds(all)).toEqual(["inbound-1", ...sent]);
    expect(all.every((event) => event.event === "message" && /^\d+$/.test(event.id ?? ""))).toBe(true);

    // A browser that saw up to "one" reconnects: it gets "two" and "three", then a live one.
    const resumed = await authed(channel, "events", { headers: { "Last-Event-ID": all[1]?.id as string } });
    expect(resumed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    // A conversation is never stored by a cache (no-cache would store it and revalidate).
    expect(resumed.headers.get("cache-control")).toBe("no-store");
    const reading = readEvents(resumed, 3);
    const live = await channel.adapter.send({ text: "four" }, channel.target);
    const events = await reading;
    expect(messageIds(events)).toEqual([sent[1], sent[2], live.messages[0]?.id]);
    expect(JSON.parse(events[2]?.data ?? "{}").html).toContain("<p>four</p>");
  });

  it("loses nothing appended while the history is being read, and doubles nothing", async () => {
    const response = await authed(channel, "events?after=1");
    const reading = readEvents(response, 20);
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1)
      ids.push((await channel.adapter.send({ text: `m${i}` }, channel.target)).messages[0]?.id as string);
    expect(messageIds(await reading)).toEqual(ids);
  });

  it("prefers Last-Event-ID over ?after= (the browser's own resume point)", async () => {
    const first = await channel.adapter.send({ text: "first" }, channel.target);
    const second = await channel.adapter.send({ text: "second" }, channel.target);
    const response = await authed(channel, "events?after=0", { headers: { "Last-Event-ID": "2" } });
    expect(messageIds(await readEvents(response, 1))).toEqual([second.messages[0]?.id]);
    expect(first.messages[0]?.id).not.toBe(second.messages[0]?.id);
  });
});
