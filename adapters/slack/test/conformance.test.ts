import { describeConformance } from "@outbox/conformance";
import { createSlackHarness } from "@outbox/slack/conformance";

describeConformance(createSlackHarness(), { strict: true });
