import { type DeliveryReceipt, PayloadError, TransportError } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { checkHistory, type DeliveryHistory, type JudgedDelivery } from "../src/index.js";

const ok = (parts: number[]): DeliveryReceipt => ({
  ok: true,
  messages: parts.map((part) => ({ id: `m${part}`, kind: "text", part })),
  failures: [],
  degraded: [],
});

const text = (value: string) => ({ kind: "text" as const, text: value });

function history(
  observed: DeliveryHistory["observed"],
  deliveries: JudgedDelivery[],
  reached: (marker: string) => boolean = () => true,
): DeliveryHistory {
  return { observed, deliveries, reached };
}

describe("checkHistory", () => {
  it("passes a clean history and counts it", () => {
    const verdict = checkHistory(
      history({ c1: [text("a ⟦a0⟧"), text("⟦a1⟧"), text("⟦b0⟧")] }, [
        { chat: "c1", parts: ["⟦a0⟧", "⟦a1⟧"], receipt: ok([0, 1]) },
        { chat: "c1", parts: ["⟦b0⟧"], receipt: ok([0]) },
      ]),
    );
    expect(verdict.violations).toEqual([]);
    expect(verdict.ok).toBe(true);
    expect(verdict.counts).toMatchObject({ parts: 3, delivered: 3, duplicates: 0 });
  });

  it("names a duplicate, and the order it breaks", () => {
    const verdict = checkHistory(
      history({ c1: [text("⟦a0⟧"), text("⟦a1⟧"), text("⟦a0⟧")] }, [
        { chat: "c1", parts: ["⟦a0⟧", "⟦a1⟧"], receipt: ok([0, 1]) },
      ]),
    );
    expect(verdict.counts.duplicates).toBe(1);
    expect(verdict.counts.outOfOrderChats).toBe(1);
    expect(verdict.violations).toContain("chat c1, delivery 0, part 0 (⟦a0⟧): the platform shows it 2 times");
    expect(verdict.violations).toContain("chat c1: ⟦a0⟧ shows after ⟦a1⟧");
  });

  it("finds a silent loss, a phantom and an unreported part", () => {
    const receipt: DeliveryReceipt = {
      ok: true,
      messages: [{ id: "1", kind: "text", part: 1 }],
      failures: [],
      degraded: [],
    };
    const verdict = checkHistory(
      history({ c1: [text("⟦a2⟧")] }, [{ chat: "c1", parts: ["⟦a0⟧", "⟦a1⟧", "⟦a2⟧"], receipt }]),
    );
    expect(verdict.counts).toMatchObject({ silentLosses: 1, phantoms: 1, unreported: 1 });
    expect(verdict.violations).toEqual([
      "chat c1, delivery 0, part 0 (⟦a0⟧): not delivered and not named in the receipt",
      "chat c1, delivery 0, part 1 (⟦a1⟧): the receipt lists it delivered, the platform does not show it",
      "chat c1, delivery 0, part 2 (⟦a2⟧): the platform shows it, the receipt neither lists nor names it",
    ]);
  });

  it("allows ambiguity only where a request reached the platform", () => {
    const receipt: DeliveryReceipt = {
      ok: false,
      messages: [],
      failures: [
        { part: 0, error: new TransportError("reset", { ambiguous: true }) },
        { part: 1, error: new TransportError("reset", { ambiguous: true }) },
      ],
      degraded: [],
    };
    const verdict = checkHistory(
      history(
        { c1: [text("⟦a0⟧")] },
        [{ chat: "c1", parts: ["⟦a0⟧", "⟦a1⟧"], receipt }],
        (m) => m === "⟦a0⟧",
      ),
    );
    expect(verdict.counts).toMatchObject({
      ambiguous: 2,
      failed: 2,
      unjustifiedAmbiguous: 1,
      falseFailures: 0,
    });
    expect(verdict.violations).toEqual([
      "chat c1, delivery 0, part 1 (⟦a1⟧): reported ambiguous, but no request for it reached the platform",
    ]);
  });

  it("calls a certain failure of a shown part false, and a hung receipt hung", () => {
    const receipt: DeliveryReceipt = {
      ok: false,
      messages: [],
      failures: [{ part: 0, error: new PayloadError("refused") }],
      degraded: [],
    };
    const verdict = checkHistory(
      history({ c1: [text("⟦a0⟧")], c2: [] }, [
        { chat: "c1", parts: ["⟦a0⟧"], receipt },
        { chat: "c2", parts: ["⟦b0⟧"], receipt: undefined },
      ]),
    );
    expect(verdict.counts).toMatchObject({ falseFailures: 1, hungReceipts: 1, silentLosses: 0 });
    expect(verdict.violations).toEqual([
      "chat c1, delivery 0, part 0 (⟦a0⟧): reported failed (payload_invalid), but the platform shows it",
      "chat c2, delivery 1: the receipt never settled",
    ]);
  });

  it("finds markers in captions and album members, and by pattern", () => {
    const album = { kind: "album" as const, items: [{ kind: "image" as const, fileName: "⟦a1⟧.png" }] };
    const base = history({ c1: [{ kind: "image", caption: "x ⟦a0⟧" }, album] }, [
      { chat: "c1", parts: ["⟦a0⟧", "⟦a1⟧"], receipt: ok([0, 1]) },
    ]);
    expect(checkHistory(base).ok).toBe(true);
    expect(checkHistory({ ...base, markerPattern: /⟦[a-z0-9]+⟧/g }).counts.delivered).toBe(2);
  });

  it("counts a part once per album item: one file twice in one album is a duplicate", () => {
    const item = (fileName: string) => ({ kind: "image" as const, fileName });
    // The album's caption on the message and on its first item is one showing, not two.
    const album = (...items: ReturnType<typeof item>[]) => ({
      kind: "album" as const,
      caption: "⟦a0⟧",
      items: [{ ...(items[0] as ReturnType<typeof item>), caption: "⟦a0⟧" }, ...items.slice(1)],
    });
    const deliveries = [{ chat: "c1", parts: ["⟦a0⟧", "⟦a1⟧", "⟦a2⟧"], receipt: ok([0, 1, 2]) }];
    const once = checkHistory(history({ c1: [album(item("⟦a1⟧.png"), item("⟦a2⟧.png"))] }, deliveries));
    expect(once.violations).toEqual([]);
    expect(once.counts).toMatchObject({ delivered: 3, duplicates: 0 });
    for (const markerPattern of [undefined, /⟦[a-z0-9]+⟧/g]) {
      const twice = checkHistory({
        ...history({ c1: [album(item("⟦a1⟧.png"), item("⟦a2⟧.png"), item("⟦a1⟧.png"))] }, deliveries),
        ...(markerPattern ? { markerPattern } : {}),
      });
      expect(twice.counts).toMatchObject({ delivered: 2, duplicates: 1 });
      expect(twice.violations).toEqual(["chat c1, delivery 0, part 1 (⟦a1⟧): the platform shows it 2 times"]);
    }
  });

  it("refuses a marker given twice", () => {
    expect(() =>
      checkHistory(history({}, [{ chat: "c1", parts: ["⟦a0⟧", "⟦a0⟧"], receipt: undefined }])),
    ).toThrow('marker "⟦a0⟧" is empty or given twice');
  });
});
