import { describeConformance } from "@outbox/conformance";
import { createWhatsAppHarness } from "@outbox/whatsapp/conformance";

describeConformance(createWhatsAppHarness(), { strict: true });
