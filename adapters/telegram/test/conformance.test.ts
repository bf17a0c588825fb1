import { describeConformance } from "@outbox/conformance";
import { createTelegramHarness } from "../src/conformance/index.js";

describeConformance(createTelegramHarness(), { strict: true });
