import { describeConformance } from "@outbox/conformance";
import { createTeamsHarness } from "@outbox/teams/conformance";

describeConformance(createTeamsHarness(), { strict: true });
