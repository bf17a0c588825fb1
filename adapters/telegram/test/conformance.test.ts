import { describeConformance } from "@outbox/conformance";
import { createTelegramHarness } from "../src/testing/index.js";

describeConformance(createTelegramHarness(), { strict: true });
