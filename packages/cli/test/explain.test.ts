/** The one-line fix for each error: a store failure names the store, not the network. */
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
});
