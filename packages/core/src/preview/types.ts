/**
 * The types the live preview and its settle hook share: a leaf, so that neither module
 * imports the other.
 */
import type {
  Capabilities,
  Clock,
  DeliveryReceipt,
  EditCapabilities,
  LivePreview,
  PacingOptions,
  Renderer,
  SendOptions,
  Transport,
} from "../adapter/types.js";
import type { Pacer } from "../engine/pacer.js";
import type { ResolvedRetryPolicy } from "../engine/retry.js";
import type { PlanHook } from "../engine/run-plan.js";
import type { ReplyPayload, ReplyPayloadInput, Target } from "../payload/types.js";

/** What a live preview uses of its adapter. */
export interface PreviewEngine {
  /** The adapter's validated capabilities. */
  capabilities: Capabilities;
  /** `capabilities.edits`, present. */
  edits: EditCapabilities;
  /** The platform renderer. */
  renderer: Renderer;
  /** The transport; `editText` is present (checked by `createAdapter`). */
  transport: Transport;
  /** The adapter's clock. */
  clock: Clock;
  /** The adapter's retry bounds, pacer and shared rate gate (all shared with `send`). */
  retry: { policy: ResolvedRetryPolicy; pacer: Pacer; gate?: PacingOptions["gate"] };
  /** The adapter's secrets, kept out of receipts. */
  secrets: readonly string[];
  /** The adapter's `send`, with a hook between planning and executing. */
  send(
    payload: ReplyPayloadInput | ReplyPayload,
    target: Target,
    options: SendOptions | undefined,
    hook: PlanHook,
  ): Promise<DeliveryReceipt>;
}

/** What the preview message shows and when it last changed; shared with the settle hook. */
export interface PreviewMessage {
  /** Platform id, once the first update went out. */
  id: string | undefined;
  /** Rendered text it shows. */
  shown: string | undefined;
  /** `clock.now()` when it last changed (sent or edited). */
  changedAt: number;
  /** Whether settle already turned it into a part of a reply. */
  reused: boolean;
  /** Set by settle when the message did not become the reply (see {@link LivePreview.replaced}). */
  replaced?: LivePreview["replaced"];
}
