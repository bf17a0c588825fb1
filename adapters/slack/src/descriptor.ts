/**
 * The Slack adapter as tools see it (`@outbox/slack/descriptor`): its settings, its packages
 * and its emulator. Loads neither @slack/web-api nor the adapter until one is built.
 */
import type { AdapterDescriptor } from "@outbox/core";
import { slackCapabilities } from "./capabilities.js";

/** The Slack adapter's descriptor. */
export const descriptor: AdapterDescriptor<"token" | "slackApiUrl"> = {
  name: "slack",
  title: "Slack",
  packages: ["@outbox/slack", "@slack/web-api"],
  env: [
    {
      name: "OUTBOX_SLACK_TOKEN",
      field: "token",
      required: true,
      secret: true,
      help: "create a Slack app with the chat:write and files:write bot scopes, install it, and copy its Bot User OAuth Token (xoxb-…)",
    },
    {
      name: "OUTBOX_SLACK_API_URL",
      field: "slackApiUrl",
      help: "Web API root (default https://slack.com/api/)",
    },
  ],
  target: {
    description:
      "the channel id (C…, under the channel's About), with the app invited to that channel (/invite)",
    example: "C0123456789",
  },
  capabilities: slackCapabilities,
  async createAdapter(config, media) {
    const { createSlackAdapter } = await import("./adapter.js");
    return createSlackAdapter({ ...config, media });
  },
  async createEmulatedChannel(options) {
    return (await import("./testing/channel.js")).createEmulatedChannel(options);
  },
  async startEmulator(options) {
    return (await import("./testing/standalone.js")).startStandaloneEmulator(options);
  },
};
