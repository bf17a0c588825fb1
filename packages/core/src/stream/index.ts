/** Streaming an agent's run to a channel: the runtime media contract, deliverAgentRun, inbound media, the AI SDK bridge. */
export type * from "./agent-event.js";
export {
  type BlockSizes,
  type BlockSplitter,
  createBlockSplitter,
  type FlushScope,
} from "./block-splitter.js";
export { deliverAgentRun } from "./deliver-agent-run.js";
export type * from "./run-types.js";
