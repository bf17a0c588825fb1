/**
 * The conformance suite in strict mode over the store: what the adapter appended, decoded by
 * `observeMessages`. (The browser harness in `./conformance` judges the rendered page.)
 */
import { conformanceMedia, describeConformance } from "@outbox/conformance";
import { createEmulatedChannel } from "../src/testing/index.js";

describeConformance(
  {
    name: "web (store)",
    async setup() {
      const media = await conformanceMedia();
      const channel = await createEmulatedChannel({ media: media.policy });
      return {
        adapter: channel.adapter,
        target: { to: channel.target.to },
        observe: () => channel.observe(),
        inject: (fault) => channel.inject(fault),
        rateLimitRefusals: () => 0,
        teardown: () => channel.close(),
      };
    },
  },
  { strict: true },
);
