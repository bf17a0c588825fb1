/**
 * The platforms of the fault matrix: each emulator (a real HTTP server on 127.0.0.1) with its
 * adapter talking to it through the real client library (grammY, @slack/web-api,
 * @discordjs/rest; undici for WhatsApp and Matrix), on an injected clock, and the requests
 * each part of the matrix's reply makes, by the names the emulators' fault targets use.
 */
import type { ChannelAdapter, Clock, Fault, MediaPolicy, ObservedMessage } from "@outbox/core";
import type { PlatformEmulator } from "@outbox/core/testing";
import { createDiscordAdapter } from "@outbox/discord";
import { DEFAULT_CHANNEL, startDiscordEmulator } from "@outbox/discord/testing";
import { createGoogleChatAdapter } from "@outbox/googlechat";
import { emulatorConfig as googleChatConfig, startGoogleChatEmulator } from "@outbox/googlechat/testing";
import { createMatrixAdapter } from "@outbox/matrix";
import { DEFAULT_ROOM, startMatrixEmulator } from "@outbox/matrix/testing";
import { createSlackAdapter } from "@outbox/slack";
import { EMULATED_CHANNEL, startSlackEmulator } from "@outbox/slack/testing";
import { createTeamsAdapter } from "@outbox/teams";
import { emulatorConfig, startTeamsEmulator } from "@outbox/teams/testing";
import { createTelegramAdapter } from "@outbox/telegram";
import { startTelegramEmulator } from "@outbox/telegram/testing";
import { createWhatsAppAdapter } from "@outbox/whatsapp";
import { startWhatsAppEmulator } from "@outbox/whatsapp/testing";

/** An emulator with its adapter. */
export interface FaultRig {
  /** The adapter under test. */
  adapter: ChannelAdapter;
  /** The conversation it sends to. */
  to: string;
  /** What the conversation shows. */
  observe(): ObservedMessage[];
  /** Whether a request carrying `marker` reached the platform (processed or not). */
  reached(marker: string): boolean;
  /** Answers each request got (0: dropped or withheld), in arrival order, with its method. */
  answers(): Array<{ method: string; status: number }>;
  /** Connections reset before their request was written. */
  refused(): number;
  /** Queue a fault. */
  inject(fault: Fault): void;
  /** Stop both. */
  close(): Promise<void>;
}

/** How a rig is built. */
export interface RigOptions {
  /** The engine's clock. */
  clock: Clock;
  /** Where the media comes from. */
  media: MediaPolicy;
  /** The client library's request timeout, in milliseconds. */
  timeoutMs: number;
}

/** One platform of the matrix. */
export interface FaultPlatform {
  /** Platform name. */
  name: "telegram" | "slack" | "discord" | "whatsapp" | "matrix" | "teams" | "googlechat";
  /** Text chunk length the reply's two text parts must stay under. */
  chunk: number;
  /** Whether the platform deduplicates sends by the operation key (Discord's enforced nonce, Google Chat's messageId). */
  deduplicates: boolean;
  /** The requests of each part of the reply, in order: the method each one is made to. */
  requests: readonly [text: string, media: readonly string[]];
  /** Start an emulator and an adapter. */
  start(options: RigOptions): Promise<FaultRig>;
}

const reachedIn = (requests: ReadonlyArray<{ content?: string }>) => (marker: string) =>
  requests.some((request) => request.content?.includes(marker) === true);

/** A rig over an emulator: what differs per platform is the conversation. */
function rigOf(
  adapter: ChannelAdapter,
  emulator: PlatformEmulator,
  to: string,
  observe: () => ObservedMessage[],
): FaultRig {
  return {
    adapter,
    to,
    observe,
    reached: reachedIn(emulator.requests),
    answers: () => emulator.requests.map(({ method, status }) => ({ method, status })),
    refused: () => emulator.refusedConnections(),
    inject: (fault) => emulator.inject(fault),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}

export const platforms: readonly FaultPlatform[] = [
  {
    name: "telegram",
    chunk: 4096,
    deduplicates: false,
    requests: ["sendMessage", ["sendPhoto"]],
    async start({ clock, media, timeoutMs }) {
      const emulator = await startTelegramEmulator({ chats: [{ id: 42 }], rateLimits: false });
      const adapter = createTelegramAdapter({
        token: emulator.token,
        apiRoot: emulator.apiRoot,
        timeoutSeconds: timeoutMs / 1000,
        clock,
        media,
      });
      return rigOf(adapter, emulator, "42", () => emulator.observe(42));
    },
  },
  {
    name: "slack",
    chunk: 4000,
    deduplicates: false,
    requests: ["chat.postMessage", ["files.getUploadURLExternal", "upload", "files.completeUploadExternal"]],
    async start({ clock, media, timeoutMs }) {
      const emulator = await startSlackEmulator({ rateLimits: false });
      const adapter = createSlackAdapter({
        token: emulator.token,
        slackApiUrl: emulator.slackApiUrl,
        clientOptions: { timeout: timeoutMs },
        clock,
        media,
      });
      return rigOf(adapter, emulator, EMULATED_CHANNEL, () => emulator.observe(EMULATED_CHANNEL));
    },
  },
  {
    name: "discord",
    chunk: 2000,
    deduplicates: true,
    requests: ["POST /channels/:id/messages", ["POST /channels/:id/messages"]],
    async start({ clock, media, timeoutMs }) {
      const emulator = await startDiscordEmulator({ messageBucket: false, globalPerSecond: false });
      const adapter = createDiscordAdapter({
        token: emulator.token,
        api: emulator.api,
        timeoutMs,
        clock,
        media,
      });
      return rigOf(adapter, emulator, DEFAULT_CHANNEL, () => emulator.observe(DEFAULT_CHANNEL));
    },
  },
  {
    name: "whatsapp",
    chunk: 4096,
    deduplicates: false,
    requests: ["messages", ["media", "messages"]],
    async start({ clock, media, timeoutMs }) {
      const recipient = "15550001234";
      const emulator = await startWhatsAppEmulator({ allowedRecipients: [recipient], limits: false });
      emulator.seedMessage(recipient, "hello");
      const adapter = createWhatsAppAdapter({
        token: emulator.token,
        phoneNumberId: emulator.phoneNumberId,
        graphApiUrl: emulator.graphApiUrl,
        timeoutMs,
        clock,
        media,
      });
      return rigOf(adapter, emulator, recipient, () => emulator.observe(recipient));
    },
  },
  {
    name: "matrix",
    // Matrix counts an event's bytes with the text twice in it (body and formatted_body).
    chunk: 30_000,
    deduplicates: true,
    requests: ["send", ["upload", "send"]],
    async start({ clock, media, timeoutMs }) {
      const emulator = await startMatrixEmulator({ rateLimit: false });
      const adapter = createMatrixAdapter({
        homeserver: emulator.homeserver,
        accessToken: emulator.accessToken,
        timeoutMs,
        clock,
        media,
      });
      return rigOf(adapter, emulator, DEFAULT_ROOM, () => emulator.observe(DEFAULT_ROOM));
    },
  },
  {
    name: "teams",
    // 28 KB of UTF-16 per activity: about 14,000 characters of text.
    chunk: 12_000,
    deduplicates: false,
    requests: ["sendToConversation", ["sendToConversation"]],
    async start({ clock, media, timeoutMs }) {
      const chat = "a:1faults";
      const emulator = await startTeamsEmulator({ conversations: [{ id: chat }], rateLimits: false });
      const config = emulatorConfig(emulator);
      const adapter = createTeamsAdapter({
        ...config,
        timeoutMs,
        clock,
        media: { ...config.media, ...media },
      });
      return rigOf(adapter, emulator, chat, () => emulator.observe(chat));
    },
  },
  {
    name: "googlechat",
    chunk: 3000,
    // A resend carries the same client-assigned messageId: Google answers ALREADY_EXISTS, never a second message.
    deduplicates: true,
    requests: ["spaces.messages.create", ["spaces.messages.create"]],
    async start({ clock, media, timeoutMs }) {
      const space = "spaces/OUTBOXfaults";
      const emulator = await startGoogleChatEmulator({ spaces: [{ name: space }], rateLimits: false });
      const config = googleChatConfig(emulator);
      const adapter = createGoogleChatAdapter({
        ...config,
        timeoutMs,
        clock,
        media: { ...config.media, ...media },
      });
      return rigOf(adapter, emulator, space, () => emulator.observe(space));
    },
  },
];
