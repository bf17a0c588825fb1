import { describeConformance } from "@outbox/conformance";
import { createMatrixHarness } from "../src/conformance/index.js";

describeConformance(createMatrixHarness(), { strict: true });
