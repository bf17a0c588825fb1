/**
 * The `||spoiler||` node in mdast trees (an Outbox extension), kept apart from the markdown-it
 * plugin that produces it so the public type surface names no markdown-it type.
 */
import type { Parent, PhrasingContent } from "mdast";

/** `||hidden||` text: shown blurred until tapped (Telegram `<tg-spoiler>`, Discord `||…||`). */
export interface Spoiler extends Parent {
  /** Node type. */
  type: "spoiler";
  /** The hidden content. */
  children: PhrasingContent[];
}

declare module "mdast" {
  interface PhrasingContentMap {
    /** `||spoiler||` (Outbox extension). */
    spoiler: Spoiler;
  }
  interface RootContentMap {
    /** `||spoiler||` (Outbox extension). */
    spoiler: Spoiler;
  }
}
