import { describeConformance } from "@outbox/conformance";
import { createMcpHarness } from "../src/conformance/index.js";

describeConformance(createMcpHarness(), { strict: true });
