import { describeConformance } from "@outbox/conformance";
import { createDiscordHarness } from "../src/conformance/index.js";

describeConformance(createDiscordHarness(), { strict: true });
