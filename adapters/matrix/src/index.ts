/** @outbox/matrix: the Outbox adapter for Matrix, on a thin typed client over undici. */
export { createMatrixAdapter } from "./adapter.js";
export {
  DEFAULT_MAX_UPLOAD_BYTES,
  type MatrixCapabilityOptions,
  type MatrixRateLimit,
  matrixCapabilities,
  matrixCapabilitiesFor,
  SYNAPSE_MESSAGE_RATE,
} from "./capabilities.js";
export { MatrixClient, type MatrixClientOptions, MatrixHttpError } from "./client/matrix-client.js";
export { htmlToBody } from "./render/body.js";
export { matrixRenderer } from "./render/renderer.js";
export { createMatrixTransport, type MatrixTransportOptions } from "./transport/transport.js";
export type { MatrixAdapterConfig } from "./types.js";
