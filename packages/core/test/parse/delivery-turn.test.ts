import { describe, expect, it } from "vitest";
import { createDeliveryTurn } from "../../src/parse/delivery-turn.js";
import type { ReplyPayload } from "../../src/payload/types.js";

function payload(fields: Partial<ReplyPayload>): ReplyPayload {
  return {
    text: "",
    mediaUrls: [],
    media: [],
    audioAsVoice: false,
    replyToCurrent: false,
    embeds: [],
    ...fields,
  };
}

describe("createDeliveryTurn", () => {
  it("removes media already delivered, by identity", () => {
    const turn = createDeliveryTurn({ workspaceDir: "/w" });
    turn.recordSent(payload({ text: "block", mediaUrls: ["/w/a.png"] }));
    const final = turn.finalize(payload({ text: "final", mediaUrls: ["file:///w/a.png", "./b.png"] }));
    expect(final?.mediaUrls).toEqual(["./b.png"]);
    expect(final?.text).toBe("final");
  });

  it("appends queued tool media unless the final reply names it, ORing its voice flag", () => {
    const turn = createDeliveryTurn({ workspaceDir: "/w" });
    turn.addToolMedia(["/w/voice.ogg"], { audioAsVoice: true });
    turn.addToolMedia(["./chart.png", " "]);
    const final = turn.finalize(payload({ text: "done", mediaUrls: ["chart.png"] }));
    expect(final?.mediaUrls).toEqual(["chart.png", "/w/voice.ogg"]);
    expect(final?.audioAsVoice).toBe(true);
  });

  it("does not resend tool media that a streamed block already delivered", () => {
    const turn = createDeliveryTurn({ workspaceDir: "/w" });
    turn.addToolMedia(["/w/voice.ogg"], { audioAsVoice: true });
    turn.recordSent(payload({ mediaUrls: ["/w/voice.ogg"] }));
    expect(turn.finalize(payload({ text: "" }))).toBeNull();
  });

  it("drops the final text when it repeats what was streamed", () => {
    const turn = createDeliveryTurn();
    turn.recordSent(payload({ text: "Hello" }));
    turn.recordSent(payload({ text: "world" }));
    expect(turn.finalize(payload({ text: "Hello world" }))).toBeNull();
    const other = createDeliveryTurn();
    other.recordSent(payload({ text: "one" }));
    other.recordSent(payload({ text: "two" }));
    expect(other.finalize(payload({ text: " one\ntwo " }))).toBeNull();
    const again = createDeliveryTurn();
    again.recordSent(payload({ text: "same" }));
    expect(again.finalize(payload({ text: "same", mediaUrls: ["/new.png"] }))).toMatchObject({
      text: "",
      mediaUrls: ["/new.png"],
    });
    const different = createDeliveryTurn();
    different.recordSent(payload({ text: "part" }));
    expect(different.finalize(payload({ text: "part and more" }))?.text).toBe("part and more");
  });

  it("keeps embeds and inline media not delivered; returns null when nothing is left", () => {
    const turn = createDeliveryTurn();
    turn.recordSent(payload({ media: [{ mimeType: "image/png", filePath: "/tmp/a.png" }] }));
    const inline = { mimeType: "image/png", data: new Uint8Array([1]) };
    const final = turn.finalize(
      payload({ media: [{ mimeType: "image/png", filePath: "/tmp/a.png" }, inline] }),
    );
    expect(final?.media).toEqual([inline]);
    const empty = createDeliveryTurn();
    expect(empty.finalize(payload({ text: "  " }))).toBeNull();
  });

  it("delivers once: a second finalize has nothing left", () => {
    const turn = createDeliveryTurn();
    turn.addToolMedia(["/tmp/a.png"]);
    const final = payload({ text: "hi" });
    expect(turn.finalize(final)).toMatchObject({ text: "hi", mediaUrls: ["/tmp/a.png"] });
    expect(turn.finalize(final)).toBeNull();
  });

  it("withoutSent: drops media already delivered (by identity) and repeats, keeps the text, records nothing", () => {
    const turn = createDeliveryTurn({ workspaceDir: "/w" });
    turn.recordSent(payload({ text: "block one", mediaUrls: ["/w/a.png"] }));
    const block = payload({
      text: "block one",
      mediaUrls: ["file:///w/a.png", "./b.png", "/w/b.png"],
      media: [{ mimeType: "image/png", filePath: "a.png" }],
    });
    const rest = turn.withoutSent(block);
    expect(rest).toMatchObject({ text: "block one", mediaUrls: ["./b.png"], media: [] });
    // Nothing was recorded: the same payload still has b.png to deliver.
    expect(turn.withoutSent(block).mediaUrls).toEqual(["./b.png"]);
  });

  it("an attachment's sourceUrl is its identity too: sent as an attachment, a later reference to it is dropped", () => {
    const turn = createDeliveryTurn();
    const url = "https://example.com/chart.png";
    turn.recordSent(
      payload({ media: [{ mimeType: "image/png", data: new Uint8Array([1]), sourceUrl: url }] }),
    );
    expect(
      turn.finalize(payload({ text: "done", mediaUrls: ["https://EXAMPLE.com/chart.png"] })),
    ).toMatchObject({
      text: "done",
      mediaUrls: [],
    });
    turn.recordSent(payload({ mediaUrls: ["https://example.com/b.png"] }));
    const block = payload({
      media: [{ mimeType: "image/png", base64: "AQ==", sourceUrl: "https://example.com/b.png" }],
    });
    expect(turn.withoutSent(block).media).toEqual([]);
  });
});
