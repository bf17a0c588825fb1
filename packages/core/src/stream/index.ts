/** Streaming an agent's run to a channel: the runtime media contract, deliverAgentRun, inbound media, the AI SDK bridge. */
export type * from "./agent-event.js";
export { type AiSdkStreamPart, type FromAiSdkOptions, fromAiSdkStream } from "./ai-sdk.js";
export {
  type BlockSizes,
  type BlockSplitter,
  createBlockSplitter,
  type FlushScope,
} from "./block-splitter.js";
export { deliverAgentRun } from "./deliver-agent-run.js";
export {
  acceptsMime,
  type PreparedInbound,
  type PrepareInboundOptions,
  prepareInboundMedia,
} from "./inbound-media.js";
export type * from "./run-types.js";
