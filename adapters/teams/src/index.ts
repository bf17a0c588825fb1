/** @outbox/teams: the Outbox adapter for Microsoft Teams through the Bot Framework connector. */
export { createTeamsAdapter } from "./adapter.js";
export {
  INLINE_IMAGE_MAX_BYTES,
  MAX_ACTIVITY_UTF16_BYTES,
  MAX_TEXT_UTF16_BYTES,
  TEAMS_RATE_LIMITS,
  teamsCapabilities,
  teamsCapabilitiesFor,
} from "./capabilities.js";
export { renderTeamsHtml, teamsRenderer, utf16JsonBytes } from "./render/renderer.js";
export type { TeamsAdapterConfig, TeamsTokenProvider } from "./types.js";
