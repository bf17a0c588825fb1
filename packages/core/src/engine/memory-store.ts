import type { DeliveryJournal, DeliveryStore } from "../adapter/types.js";

/** The default journal store: in memory, per adapter; lost when the process exits. */
export function createMemoryStore(): DeliveryStore {
  const journals = new Map<string, DeliveryJournal>();
  return {
    get: async (key) => {
      const journal = journals.get(key);
      return journal === undefined ? undefined : structuredClone(journal);
    },
    set: async (key, journal) => {
      journals.set(key, structuredClone(journal));
    },
  };
}
