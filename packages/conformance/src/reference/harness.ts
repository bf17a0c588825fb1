import {
  type Capabilities,
  type ChannelAdapter,
  type Clock,
  createAdapter,
  type MediaPolicy,
  type Renderer,
  type Transport,
} from "@outbox/core";
import { conformanceMedia } from "../media-server.js";
import type { Combines, ConformanceHarness, FormatGaps } from "../types.js";
import { harnessClock } from "../virtual-time.js";
import { referenceCapabilities } from "./capabilities.js";
import { REFERENCE_CHAT, ReferenceEmulator } from "./emulator.js";
import { referenceRenderer } from "./markup.js";
import { createReferenceTransport } from "./transport.js";

/** Options of {@link createReferenceAdapter}. */
export interface ReferenceAdapterOptions {
  /** The platform to talk to. */
  emulator: ReferenceEmulator;
  /** Media policy (e.g. `conformanceMedia().policy`). */
  media?: MediaPolicy;
  /** Capabilities to declare. Default {@link referenceCapabilities}. */
  capabilities?: Capabilities;
  /** Wrap the transport (to model a transport bug). */
  transport?: (transport: Transport) => Transport;
  /** Wrap the renderer (to model a rendering bug). */
  renderer?: (renderer: Renderer) => Renderer;
  /** Clock for pacing, edit spacing and retry waits. Default: the real clock. */
  clock?: Clock;
}

/**
 * The reference adapter: the complete example of an adapter, built with core's
 * `createAdapter` from capabilities, a renderer and a transport over an in-memory
 * {@link ReferenceEmulator}.
 */
export function createReferenceAdapter(options: ReferenceAdapterOptions): ChannelAdapter {
  const transport = createReferenceTransport(options.emulator);
  return createAdapter({
    name: "reference",
    capabilities: options.capabilities ?? referenceCapabilities,
    renderer: options.renderer ? options.renderer(referenceRenderer) : referenceRenderer,
    transport: options.transport ? options.transport(transport) : transport,
    ...(options.media ? { media: options.media } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
}

/** Options of {@link createReferenceHarness}: hooks that build deliberately broken variants. */
export interface ReferenceHarnessOptions
  extends Omit<ReferenceAdapterOptions, "emulator" | "media" | "clock"> {
  /** Suite label. Default `reference`. */
  name?: string;
  /** Change the media policy the adapter is built with. */
  media?: (policy: MediaPolicy) => MediaPolicy;
  /** Wrap the finished adapter (to model a bug around `send`). */
  adapter?: (adapter: ChannelAdapter) => ChannelAdapter;
  /** Case id → reason, passed through as `harness.skip`. */
  skip?: Record<string, string>;
  /** Passed through as `harness.formatGaps` (with a renderer that cannot show that formatting). */
  formatGaps?: FormatGaps;
  /** Passed through as `harness.combines` (with capabilities whose albums take text and files together). */
  combines?: Combines;
  /**
   * Rules the emulator enforces when they differ from what the adapter is built with (to
   * model an adapter built without its pacer). Default: `capabilities`.
   */
  platform?: Capabilities;
}

/** The conformance harness of the reference adapter: a fresh emulator and adapter per case. */
export function createReferenceHarness(options: ReferenceHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "reference",
    ...(options.skip ? { skip: options.skip } : {}),
    ...(options.formatGaps ? { formatGaps: options.formatGaps } : {}),
    ...(options.combines ? { combines: options.combines } : {}),
    virtualTime: true,
    async setup(setup) {
      const { policy: fixturePolicy, ca } = await conformanceMedia();
      const policy = { ...fixturePolicy, ...setup?.media };
      const clocked = harnessClock(setup);
      const emulator = new ReferenceEmulator(
        options.platform ?? options.capabilities ?? referenceCapabilities,
        {
          ca,
          ...(policy.lookup ? { lookup: policy.lookup } : {}),
        },
        clocked.emulator.now,
      );
      const built = createReferenceAdapter({
        ...options,
        emulator,
        media: options.media ? options.media(policy) : policy,
        ...clocked.adapter,
      });
      const adapter = options.adapter ? options.adapter(built) : built;
      return {
        adapter,
        target: { to: REFERENCE_CHAT },
        observe: () => emulator.observe(),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        fetched: () => emulator.fetched(),
        teardown: async () => {
          await adapter.close?.();
        },
      };
    },
  };
}
