/**
 * The Teams adapter as tools see it (`@outbox/teams/descriptor`): its settings, its packages
 * and its emulator. Loads the adapter only when one is built.
 */
import type { AdapterDescriptor } from "@outbox/core";
import { teamsCapabilities } from "./capabilities.js";

/** The Teams adapter's descriptor. */
export const descriptor: AdapterDescriptor<
  "clientId" | "clientSecret" | "tenantId" | "serviceUrl" | "tokenUrl"
> = {
  name: "teams",
  title: "Microsoft Teams",
  packages: ["@outbox/teams"],
  env: [
    {
      name: "OUTBOX_TEAMS_CLIENT_ID",
      field: "clientId",
      required: true,
      help: "the Azure Bot's Microsoft App ID (its app registration's Application (client) ID)",
    },
    {
      name: "OUTBOX_TEAMS_CLIENT_SECRET",
      field: "clientSecret",
      required: true,
      secret: true,
      help: "a client secret value of that app registration (Certificates & secrets)",
    },
    {
      name: "OUTBOX_TEAMS_TENANT_ID",
      field: "tenantId",
      help: "the Directory (tenant) ID of a single-tenant bot (default botframework.com, multi-tenant)",
    },
    {
      name: "OUTBOX_TEAMS_SERVICE_URL",
      field: "serviceUrl",
      required: true,
      help: "the serviceUrl of an activity the bot received, e.g. https://smba.trafficmanager.net/teams/",
    },
    {
      name: "OUTBOX_TEAMS_TOKEN_URL",
      field: "tokenUrl",
      help: "token endpoint, for a sovereign cloud or a proxy (default https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token)",
    },
  ],
  target: {
    description:
      "the conversation id of a chat or channel the bot is in (conversation.id of an activity it received); a channel thread's root activity id as the thread",
    example: "19:abc123@thread.tacv2",
  },
  capabilities: teamsCapabilities,
  async createAdapter(config, media) {
    const { createTeamsAdapter } = await import("./adapter.js");
    return createTeamsAdapter({ serviceUrl: "", ...config, media });
  },
  async createEmulatedChannel(options) {
    return (await import("./testing/channel.js")).createEmulatedChannel(options);
  },
  async startEmulator(options) {
    return (await import("./testing/standalone.js")).startStandaloneEmulator(options);
  },
};
