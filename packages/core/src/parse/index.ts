/** The rich output protocol: parseReply, normalizePayload, neutralizeMediaDirectives, checkRemoteMediaUrl, createDeliveryTurn. */
export {
  createDeliveryTurn,
  type DeliveryTurn,
  type DeliveryTurnOptions,
  type SentPayload,
  type ToolMediaOptions,
} from "./delivery-turn.js";
export { mediaIdentity } from "./media-identity.js";
export { neutralizeMediaDirectives } from "./neutralize.js";
export { normalizePayload } from "./normalize-payload.js";
export { parseReply } from "./parse-reply.js";
export { checkRemoteMediaUrl, type RemoteUrlCheck } from "./remote-url.js";
