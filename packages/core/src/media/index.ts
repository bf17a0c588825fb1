/** Media loading: loadMedia and its policy. */
export * from "./types.js";
