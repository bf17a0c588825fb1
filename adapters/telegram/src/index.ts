/** @outbox/telegram: the Outbox adapter for Telegram, on grammY. */
export { createTelegramAdapter } from "./adapter.js";
export { telegramCapabilities } from "./capabilities.js";
export { telegramRenderer } from "./render/renderer.js";
export { createTelegramTransport, type TelegramTransportOptions } from "./transport/transport.js";
export type { TelegramAdapterConfig } from "./types.js";
