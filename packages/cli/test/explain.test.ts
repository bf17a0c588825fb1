/** The one-line fix for each error: a store failure names the store, not the network; a part's fix never duplicates. */
import { StoreError, TransportError } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { explain } from "../src/output/explain.js";

describe("explain", () => {
  it("tells a store failure (its own code) from an unreachable platform", () => {
    const store = new StoreError("the delivery journal could not be saved: ENOSPC");
    expect(explain(store)).toMatch(/^store_failed: the delivery journal .*Fix: check Outbox's store/);
    expect(explain(store)).not.toMatch(/network/);
    const network = new TransportError("connect ECONNREFUSED", { ambiguous: false });
    expect(explain(network)).toMatch(/Fix: check the network connection/);
  });

  it("never advises running the whole reply again over parts that arrived or may have", () => {
    const reset = new TransportError("socket hang up", { ambiguous: true });
    const unsure = explain(reset, undefined, { ambiguous: true, delivered: 0 });
    expect(unsure).toMatch(/may have arrived.*look in the chat/);
    expect(unsure).not.toMatch(/try again|send again/);
    const refused = new TransportError("connect ECONNREFUSED", { ambiguous: false });
    expect(explain(refused, undefined, { ambiguous: false, delivered: 2 })).toMatch(
      /send only what did not arrive/,
    );
    expect(explain(refused, undefined, { ambiguous: false, delivered: 0 })).not.toMatch(/did not arrive/);
  });
});
