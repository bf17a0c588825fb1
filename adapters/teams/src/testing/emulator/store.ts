/**
 * What the emulated Teams holds: conversations (their kind, whether the bot is in them) and
 * activities by id, each decoded into what the Teams client shows (its latest edit, the
 * earlier texts kept as revisions; a deleted message gone).
 */
import { ConnectorError } from "./errors.js";
import type { ConversationType, EmulatedConversation, StoredActivity } from "./types.js";

/** Conversations and activities. */
export class TeamsStore {
  readonly conversations = new Map<string, Required<EmulatedConversation>>();
  readonly activities: StoredActivity[] = [];
  private readonly byId = new Map<string, StoredActivity>();
  private sequence = 0;

  constructor(conversations: EmulatedConversation[]) {
    for (const conversation of conversations) this.addConversation(conversation);
  }

  /** Make a conversation exist. */
  addConversation(conversation: EmulatedConversation): void {
    this.conversations.set(conversation.id, {
      id: conversation.id,
      type: conversation.type ?? "personal",
      member: conversation.member ?? true,
    });
  }

  /**
   * The conversation a path names (`{id}` or a channel thread `{id};messageid={root}`), if the
   * bot may post there: 404 `ConversationNotFound` for an unknown one (or an unknown thread),
   * 403 `BotNotInConversationRoster` for one the bot is not in.
   */
  resolve(pathId: string): { conversation: string; type: ConversationType; thread?: string } {
    const [id = "", root] = pathId.split(";messageid=");
    const conversation = this.conversations.get(id);
    if (conversation === undefined)
      throw new ConnectorError(404, "ConversationNotFound", "Conversation not found.");
    if (!conversation.member)
      throw new ConnectorError(
        403,
        "BotNotInConversationRoster",
        "The bot is not part of the conversation roster.",
      );
    if (root === undefined) return { conversation: id, type: conversation.type };
    if (conversation.type !== "channel")
      throw new ConnectorError(400, "BadArgument", "Only a channel conversation has threads (;messageid=).");
    const parent = this.byId.get(root);
    if (parent === undefined || parent.conversation !== id || parent.thread !== undefined || parent.deleted)
      throw new ConnectorError(404, "ConversationNotFound", "Conversation not found (no such thread root).");
    return { conversation: id, type: conversation.type, thread: root };
  }

  /** A new activity id (Teams' are epoch milliseconds in channels). */
  newId(): string {
    this.sequence += 1;
    return String(1_700_000_000_000 + this.sequence);
  }

  /** An activity of a conversation the bot may edit or delete (its own, not deleted). */
  own(conversation: string, id: string): StoredActivity {
    const activity = this.byId.get(id);
    if (activity === undefined || activity.conversation !== conversation || activity.deleted)
      throw new ConnectorError(404, "ActivityNotFound", "Activity not found.");
    if (activity.inbound)
      throw new ConnectorError(403, "Forbidden", "A bot can only change its own activities.");
    return activity;
  }

  /** Store an activity. */
  add(activity: StoredActivity): void {
    this.activities.push(activity);
    this.byId.set(activity.id, activity);
  }

  /** The bot's messages of a conversation (every one when omitted), in order, as Teams shows them. */
  observe(conversation?: string) {
    return this.activities
      .filter(
        (a) => !a.inbound && !a.deleted && (conversation === undefined || a.conversation === conversation),
      )
      .map((a) => a.observed);
  }
}
