import { createDeliveryEngine } from "../engine/delivery-engine.js";
import { createPreview } from "../preview/create-preview.js";
import type { AdapterDefinition, ChannelAdapter, PreviewOptions } from "./types.js";

/**
 * Build a channel adapter from a platform's capabilities, renderer and transport: the
 * delivery engine's `send` and `plan` (docs/delivery.md), and with `capabilities.edits` a
 * live preview built on that engine (docs/live-preview.md), whose calls share its pacer.
 */
export function createAdapter(definition: AdapterDefinition): ChannelAdapter {
  const engine = createDeliveryEngine(definition);
  if (engine.capabilities.edits == null) return engine.adapter;
  const edits = engine.capabilities.edits;
  return {
    ...engine.adapter,
    preview(target, options: PreviewOptions = {}) {
      try {
        return createPreview(engine, edits, engine.checkTarget(target), options);
      } catch (error) {
        throw engine.redacted(error);
      }
    },
  };
}
