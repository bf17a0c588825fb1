/**
 * A fleet of bots for the fairness and account tests: one in-test ChannelAdapter per account
 * (our own interface, not a client library) that answers at once and logs every send in one
 * global order, so latencies are counted in jobs, never in wall time.
 */
import type { ChannelAdapter, DeliveryReceipt, ReplyPayloadInput, Target } from "@outbox/core";
import { telegramCapabilities } from "@outbox/telegram";
import type { AccountResolver } from "../../src/index.js";

/** One send, in the order sends happened across every bot. */
export interface FleetSend {
  account: string;
  to: string;
  text: string;
}

/** Bots resolved by account id, all logging into `sends`. */
export interface Fleet {
  resolver: AccountResolver;
  sends: FleetSend[];
  /** Accounts resolved, in order (a second entry for one account: it was resolved again). */
  resolved: string[];
  /** Accounts whose adapter was closed, in order. */
  closed: string[];
  /** Called inside each send, before it returns (a test may enqueue more meanwhile). */
  onSend?: (send: FleetSend) => Promise<void> | void;
}

/** A fleet on platform `fleet` (resolver options such as `idleMs` and `clock` spread in). */
export function createFleet(options: Partial<Pick<AccountResolver, "idleMs" | "clock">> = {}): Fleet {
  const fleet: Fleet = {
    sends: [],
    resolved: [],
    closed: [],
    resolver: {
      platforms: ["fleet"],
      ...options,
      async resolve({ account }) {
        fleet.resolved.push(account);
        const adapter: ChannelAdapter = {
          name: "fleet",
          // The queue never reads these for an adapter without rate limits; any valid set does.
          capabilities: { ...telegramCapabilities, rateLimits: [] },
          async send(payload: ReplyPayloadInput, target: Target): Promise<DeliveryReceipt> {
            const send = { account, to: target.to, text: String(payload.text) };
            fleet.sends.push(send);
            await fleet.onSend?.(send);
            return {
              ok: true,
              messages: [{ id: String(fleet.sends.length), kind: "text", part: 0 }],
              failures: [],
              degraded: [],
            };
          },
          async close() {
            fleet.closed.push(account);
          },
        };
        return adapter;
      },
    },
  };
  return fleet;
}
