/**
 * Where an operation goes on Slack: the channel id (a user id opens a DM first, once per
 * user) and the `thread_ts` (the thread, else the message replied to: Slack's reply is a thread).
 */
import type { OperationBase } from "@outbox/core";
import type { WebClient } from "@slack/web-api";
import { type ThreadRole, toOutboxError } from "./errors.js";

/** Resolved placement of one operation. */
export interface Placement {
  /** Channel id (C…, G…, D…). */
  channel: string;
  /** Parent message ts, when the operation goes into a thread. */
  threadTs?: string;
  /** Whether `threadTs` comes from the thread or from the message replied to. */
  role: ThreadRole;
}

/** Resolves targets to channels, opening (and caching) direct messages. */
export class Conversations {
  private readonly dms = new Map<string, Promise<string>>();

  constructor(private readonly web: WebClient) {}

  /** Placement of an operation. */
  async place(op: OperationBase): Promise<Placement> {
    const channel = await this.channel(op.target.to);
    if (op.thread !== undefined) return { channel, threadTs: op.thread, role: "thread" };
    if (op.replyTo !== undefined) return { channel, threadTs: op.replyTo, role: "reply" };
    return { channel, role: undefined };
  }

  private channel(to: string): Promise<string> {
    if (!/^[UW][A-Z0-9]+$/.test(to)) return Promise.resolve(to);
    let open = this.dms.get(to);
    if (open === undefined) {
      open = this.web.conversations.open({ users: to }).then(
        (res) => {
          const id = res.channel?.id;
          if (!id) throw new Error(`conversations.open returned no channel for ${to}`);
          return id;
        },
        (error: unknown) => {
          this.dms.delete(to);
          throw toOutboxError(error, "conversations.open");
        },
      );
      this.dms.set(to, open);
    }
    return open;
  }
}
