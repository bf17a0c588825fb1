/**
 * How much a planner renders for a reply, counted rather than timed (so a loaded machine
 * cannot move it): the units of markup every `render` and `renderMeasured` call of
 * `planDelivery` returned, over the units of the reply rendered once. Cutting a long reply
 * into messages renders its pieces more than once (a probe that fits, one that does not);
 * a planner that renders each piece again for its chunk, or every chunk again after each
 * block, shows it here as a larger ratio.
 */
import { type Capabilities, parseReplyMarkdown, planDelivery, type Renderer } from "@outbox/core";
import { expect, it } from "vitest";
import { type HostileFamilyName, hostileMarkdown } from "./hostile-markdown.js";

/** Units rendered while planning `text`, per unit of its whole rendering (1: rendered once). */
export function renderWork(text: string, renderer: Renderer, capabilities: Capabilities): number {
  const tree = parseReplyMarkdown(text);
  const whole = renderer.render(tree).length;
  let rendered = 0;
  const counting: Renderer = {
    ...renderer,
    render: (node) => {
      const out = renderer.render(node);
      rendered += out.length;
      return out;
    },
  };
  const measured = renderer.renderMeasured;
  if (measured !== undefined)
    counting.renderMeasured = (node) => {
      const out = measured(node);
      rendered += out.text.length;
      return out;
    };
  planDelivery({ tree, media: [], audioAsVoice: false }, capabilities, counting);
  return rendered / Math.max(1, whole);
}

/**
 * Messages planned for `text` over the fewest its rendering as one piece could fill: about 1
 * when chunks are filled, far more when each block is counted as if it were a message.
 */
export function packingRatio(text: string, renderer: Renderer, capabilities: Capabilities): number {
  const tree = parseReplyMarkdown(text);
  const { maxLength, chunkLength = maxLength } = capabilities.text;
  const whole = renderer.measure(renderer.render(tree));
  const parts = planDelivery({ tree, media: [], audioAsVoice: false }, capabilities, renderer).parts;
  return parts.length / Math.max(1, Math.ceil(whole / chunkLength));
}

/**
 * One test per family: planning 64 KB of it renders at most `bound` times the reply's own
 * rendering ({@link renderWork}); and 64 KB of tiny blocks go out in at most twice the
 * messages their rendering fills ({@link packingRatio}). Deterministic, so it holds on a
 * loaded CI machine where a timing would not.
 */
export function itRendersBoundedly(
  renderer: Renderer,
  capabilities: Capabilities,
  bounds: Partial<Record<HostileFamilyName, number>>,
): void {
  it.each(Object.entries(bounds))(
    "plans 64 KB of %s rendering at most %d times its size",
    (family, bound) => {
      const text = hostileMarkdown[family as HostileFamilyName](64 * 1024);
      expect(renderWork(text, renderer, capabilities)).toBeLessThanOrEqual(bound as number);
    },
  );
  it("plans 64 KB of many tiny blocks in at most twice the messages their rendering fills", () => {
    const text = hostileMarkdown["many tiny blocks"](64 * 1024);
    expect(packingRatio(text, renderer, capabilities)).toBeLessThanOrEqual(2);
  });
}
