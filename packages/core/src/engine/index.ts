/** The delivery engine: createAdapter, plan execution, retries, pacing, once-only stores. */
export {};
