import { describeConformance } from "@outbox/conformance";
import { createGoogleChatHarness } from "@outbox/googlechat/conformance";

describeConformance(createGoogleChatHarness(), { strict: true });
