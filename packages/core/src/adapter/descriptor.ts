/**
 * What a platform's adapter package says about itself, so that tools (the `outbox` command,
 * `outbox-mcp`, the bench, the docs) need no list of platforms of their own: each adapter
 * package exports an {@link AdapterDescriptor} from its `./descriptor` entry, a module that
 * loads nothing heavy (the adapter and its emulator are imported when first used).
 */
import type { MediaPolicy } from "../media/types.js";
import type { EmulatedChannel, EmulatedChannelOptions, ObservedMessage } from "./observed.js";
import type { Capabilities, ChannelAdapter } from "./types.js";

/** One environment variable an adapter reads, and the config field it fills. */
export interface AdapterEnvVariable<Field extends string = string> {
  /** The variable (`OUTBOX_WHATSAPP_GRAPH_API_URL`): `OUTBOX_<PLATFORM>_<SETTING>`. */
  name: string;
  /** The adapter config field it sets (`graphApiUrl`). */
  field: Field;
  /** The adapter cannot be built without it. Default `false`. */
  required?: boolean;
  /** Its value is a credential: tools redact it from every line they print. Default `false`. */
  secret?: boolean;
  /** What it is and where a user finds its value, one sentence (shown when it is missing, and in the docs). */
  help: string;
}

/** The config fields read from the environment, by field name: only the variables that are set. */
export type AdapterEnvConfig<Field extends string = string> = { readonly [K in Field]?: string };

/** What a message target (`Target.to`) is on a platform, for errors and docs. */
export interface AdapterTargetFormat {
  /** What to pass and how to find it, one sentence (`the numeric chat id, negative for groups`). */
  description: string;
  /** A well-formed example (`-1001234567890`). */
  example: string;
}

/** Options of {@link AdapterDescriptor.startEmulator}. */
export interface StandaloneEmulatorOptions {
  /** Enforce the platform's rate limits as the real one does. Default `true`. */
  rateLimits?: boolean;
  /** Chats the emulator holds beyond its default one, for load. Default `0`. */
  extraChats?: number;
}

/** A platform emulator running alone on 127.0.0.1, for an adapter built elsewhere (another process). */
export interface StandaloneEmulator {
  /**
   * The environment that points the real adapter at this emulator: every required
   * variable (the token included) and the API address (`OUTBOX_TELEGRAM_API_ROOT`).
   */
  env: Record<string, string>;
  /** The chats it holds, each a valid `Target.to`: the default chat first, then the extra ones. */
  chats: string[];
  /** HTTP requests answered so far, with their status (`0`: the connection was dropped). */
  readonly requests: readonly { status: number }[];
  /** What a chat holds, in order. */
  observe(chat: string): ObservedMessage[];
  /** Stop the emulator. */
  close(): Promise<void>;
}

/**
 * A platform, as its adapter package describes it: everything a tool needs to list,
 * configure, install, build and emulate it. Exported by the package's `./descriptor` entry
 * as `descriptor`; keep that module free of the platform library so listing is cheap.
 */
export interface AdapterDescriptor<Field extends string = string> {
  /** Platform name, lowercase (`telegram`): the `outbox send <platform>` and MCP `platform` value. */
  name: string;
  /** Name as people write it (`Telegram`), for output and docs. */
  title: string;
  /** The npm packages to install for it: the adapter first, then its platform library (`["@outbox/telegram", "grammy"]`). */
  packages: readonly string[];
  /**
   * The environment variables it reads, token first, and the config field each fills. Tools
   * read them with `readAdapterEnv` only, so every tool honours the same variables.
   */
  env: readonly AdapterEnvVariable<Field>[];
  /** What `Target.to` is on this platform. */
  target: AdapterTargetFormat;
  /** The adapter's capabilities with its default config. */
  capabilities: Capabilities;
  /** Build the real adapter from the variables read (required ones are present), loading media under `media`. */
  createAdapter(config: AdapterEnvConfig<Field>, media: MediaPolicy): Promise<ChannelAdapter>;
  /** A fresh emulator with the real adapter wired to it (imports the package's `./testing`). */
  createEmulatedChannel(options?: EmulatedChannelOptions): Promise<EmulatedChannel>;
  /** Start the emulator alone, to reach it through the environment (`env`). Absent: no standalone emulator. */
  startEmulator?(options?: StandaloneEmulatorOptions): Promise<StandaloneEmulator>;
}
