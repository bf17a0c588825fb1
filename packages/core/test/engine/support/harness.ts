import { createAdapter } from "../../../src/adapter/create-adapter.js";
import type { AdapterDefinition, Capabilities, ChannelAdapter } from "../../../src/adapter/types.js";
import { createManualClock, type ManualClock } from "../../../src/engine/clock.js";
import { htmlRenderer } from "../../markdown/support/html-renderer.js";
import {
  createRecordingTransport,
  type RecordingTransport,
  testCapabilities,
} from "./recording-transport.js";

/** An adapter over a recording transport and a manual clock. */
export interface Harness {
  /** The adapter under test. */
  adapter: ChannelAdapter;
  /** What reached the "platform". */
  transport: RecordingTransport;
  /** Virtual time. */
  clock: ManualClock;
  /** `clock.run(adapter.send(...))`. */
  send: (...args: Parameters<ChannelAdapter["send"]>) => ReturnType<ChannelAdapter["send"]>;
}

/** Build a {@link Harness}. */
export function harness(
  capabilities: Partial<Capabilities> = {},
  definition: Partial<AdapterDefinition> = {},
): Harness {
  const clock = createManualClock();
  const transport = createRecordingTransport(clock);
  const adapter = createAdapter({
    name: "test",
    capabilities: testCapabilities(capabilities),
    renderer: htmlRenderer,
    transport,
    clock,
    // Exact declared limits, so tests can assert exact times (the margin has its own tests).
    pacing: { margin: 0, latencyMs: 0 },
    ...definition,
  });
  return { adapter, transport, clock, send: (...args) => clock.run(adapter.send(...args)) };
}
