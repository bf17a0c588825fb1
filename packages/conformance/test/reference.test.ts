import { describeConformance } from "../src/describe-conformance.js";
import { createReferenceHarness } from "../src/reference/harness.js";

describeConformance(createReferenceHarness(), { strict: true });
