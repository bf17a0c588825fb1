/**
 * One checker for delivery histories under faults: it reads what the platform recorded (an
 * emulator's observed messages) and what the receipts said, and judges the promise Outbox
 * makes: every part at most once; delivered or named in the receipt, never missing silently;
 * ambiguous only when the request may have been processed; per-chat order kept; every receipt
 * promise settled. The fault tests of every package and `pnpm bench queue --chaos` use it.
 */
import { type DeliveryReceipt, isAmbiguous, type ObservedMessage } from "@outbox/core";

/** One reply sent to one chat, each of its plan parts marked. */
export interface JudgedDelivery {
  /** The conversation (`Target.to`). Deliveries to one chat must show in the order listed. */
  chat: string;
  /**
   * One marker per plan part, in part order: a string the part's message shows (in its text,
   * caption, file name or an album member's) and no other part's message does.
   */
  parts: readonly string[];
  /** The receipt, or `undefined` when its promise had not settled when the history ended. */
  receipt: DeliveryReceipt | undefined;
}

/** What the platform recorded and what the receipts said. */
export interface DeliveryHistory {
  /** Messages each chat holds, in the platform's order (an emulator's `observe()`, per chat). */
  observed: Readonly<Record<string, readonly ObservedMessage[]>>;
  /** Every delivery; those to one chat in the order they were submitted. */
  deliveries: readonly JudgedDelivery[];
  /**
   * Whether a request carrying the marker reached the platform at all (processed or not): a
   * part may be reported ambiguous only then. A request refused before it was written, or one
   * that never left, makes a part failed (or resent), never ambiguous.
   */
  reached(marker: string): boolean;
  /**
   * A global pattern that matches exactly the markers in a text (e.g. `/⟦[a-z0-9-]+⟧/g`). With
   * it, markers are found by matching instead of searching every text for every marker, which
   * a history of thousands of parts needs. Without it, no marker may contain another.
   */
  markerPattern?: RegExp;
}

/** Counts of what the checker saw; the rules hold when every violation count is 0. */
export interface HistoryCounts {
  /** Parts judged. */
  parts: number;
  /** Parts the platform shows exactly once. */
  delivered: number;
  /** Parts the platform shows more than once (a violation each). */
  duplicates: number;
  /** Parts neither shown nor named in their receipt (a violation each). */
  silentLosses: number;
  /** Parts reported failed for certain although the platform shows them (a violation each). */
  falseFailures: number;
  /** Parts the platform shows that a settled receipt neither lists nor names (a violation each). */
  unreported: number;
  /** Parts a receipt lists as delivered that the platform does not show (a violation each). */
  phantoms: number;
  /** Parts reported ambiguous although no request for them reached the platform (a violation each). */
  unjustifiedAmbiguous: number;
  /** Parts reported ambiguous (allowed when their request reached the platform). */
  ambiguous: number;
  /** Parts reported failed, ambiguous or not. */
  failed: number;
  /** Chats whose messages show out of submission order (a violation each). */
  outOfOrderChats: number;
  /** Receipts that never settled (a violation each). */
  hungReceipts: number;
}

/** The checker's judgement. */
export interface HistoryVerdict {
  /** No rule was broken. */
  ok: boolean;
  /** Each broken rule, in words naming the chat, delivery and part. */
  violations: string[];
  /** What was counted. */
  counts: HistoryCounts;
}

/** Where a marker stands: its delivery (index in the history) and part. */
interface MarkerPlace {
  delivery: number;
  part: number;
  chat: string;
}

/** Judge a history (see {@link DeliveryHistory}); never throws for a broken rule. */
export function checkHistory(history: DeliveryHistory): HistoryVerdict {
  const places = indexMarkers(history.deliveries);
  const shown = new Map<string, number>();
  const violations: string[] = [];
  const counts: HistoryCounts = {
    parts: places.size,
    delivered: 0,
    duplicates: 0,
    silentLosses: 0,
    falseFailures: 0,
    unreported: 0,
    phantoms: 0,
    unjustifiedAmbiguous: 0,
    ambiguous: 0,
    failed: 0,
    outOfOrderChats: 0,
    hungReceipts: 0,
  };
  for (const [chat, messages] of Object.entries(history.observed)) {
    const order: MarkerPlace[] = [];
    for (const message of messages) {
      const found = markersShown(message, places, history.markerPattern);
      for (const [marker, times] of found) shown.set(marker, (shown.get(marker) ?? 0) + times);
      const [first] = found.keys();
      if (first !== undefined) order.push(places.get(first) as MarkerPlace);
    }
    const broken = firstOutOfOrder(order, history.deliveries);
    if (broken !== undefined) {
      counts.outOfOrderChats += 1;
      violations.push(`chat ${chat}: ${broken}`);
    }
  }
  history.deliveries.forEach((delivery, index) => {
    const name = `chat ${delivery.chat}, delivery ${index}`;
    if (delivery.receipt === undefined) {
      counts.hungReceipts += 1;
      violations.push(`${name}: the receipt never settled`);
    }
    delivery.parts.forEach((marker, part) => {
      const times = shown.get(marker) ?? 0;
      const where = `${name}, part ${part} (${marker})`;
      if (times === 1) counts.delivered += 1;
      if (times > 1) {
        counts.duplicates += 1;
        violations.push(`${where}: the platform shows it ${times} times`);
      }
      const receipt = delivery.receipt;
      if (receipt === undefined) return;
      const listed = receipt.messages.some((message) => message.part === part);
      const failure = receipt.failures.find((entry) => entry.part === part);
      const unsure = failure !== undefined && isAmbiguous(failure.error);
      if (failure !== undefined) counts.failed += 1;
      if (unsure) counts.ambiguous += 1;
      if (unsure && !history.reached(marker)) {
        counts.unjustifiedAmbiguous += 1;
        violations.push(`${where}: reported ambiguous, but no request for it reached the platform`);
      }
      if (times === 0 && listed) {
        counts.phantoms += 1;
        violations.push(`${where}: the receipt lists it delivered, the platform does not show it`);
      }
      if (times === 0 && !listed && failure === undefined) {
        counts.silentLosses += 1;
        violations.push(`${where}: not delivered and not named in the receipt`);
      }
      if (times > 0 && !listed && failure !== undefined && !unsure) {
        counts.falseFailures += 1;
        violations.push(`${where}: reported failed (${failure.error.code}), but the platform shows it`);
      }
      if (times > 0 && !listed && failure === undefined) {
        counts.unreported += 1;
        violations.push(`${where}: the platform shows it, the receipt neither lists nor names it`);
      }
    });
  });
  return { ok: violations.length === 0, violations, counts };
}

/** Every marker's place; a marker given twice is a mistake in the test, thrown at once. */
function indexMarkers(deliveries: readonly JudgedDelivery[]): Map<string, MarkerPlace> {
  const places = new Map<string, MarkerPlace>();
  deliveries.forEach((delivery, index) => {
    delivery.parts.forEach((marker, part) => {
      if (marker === "" || places.has(marker))
        throw new TypeError(`checkHistory: marker "${marker}" is empty or given twice`);
      places.set(marker, { delivery: index, part, chat: delivery.chat });
    });
  });
  return places;
}

/**
 * The markers a message shows (text, caption, file name, album members), in part order, with
 * how many times: once for the message itself, but once per item where the message lists
 * items (an album holding one part's file twice shows that part twice).
 */
function markersShown(
  message: ObservedMessage,
  places: ReadonlyMap<string, MarkerPlace>,
  pattern: RegExp | undefined,
): Map<string, number> {
  const own = markersIn(ownTexts(message), places, pattern);
  const items = (message.items ?? []).map((item) => {
    const texts: string[] = [];
    collectTexts(item, texts);
    return markersIn(texts, places, pattern);
  });
  const found = new Set([...own, ...items.flatMap((item) => [...item])]);
  const sorted = [...found].sort((a, b) => comparePlaces(places.get(a), places.get(b)));
  return new Map(
    sorted.map((marker) => [
      marker,
      Math.max(own.has(marker) ? 1 : 0, items.filter((item) => item.has(marker)).length),
    ]),
  );
}

/** The markers some of `texts` show, each once. */
function markersIn(
  texts: readonly string[],
  places: ReadonlyMap<string, MarkerPlace>,
  pattern: RegExp | undefined,
): Set<string> {
  const found = new Set<string>();
  if (pattern === undefined) {
    for (const marker of places.keys()) if (texts.some((text) => text.includes(marker))) found.add(marker);
  } else {
    for (const text of texts)
      for (const match of text.matchAll(pattern)) if (places.has(match[0])) found.add(match[0]);
  }
  return found;
}

function comparePlaces(a: MarkerPlace | undefined, b: MarkerPlace | undefined): number {
  if (a === undefined || b === undefined) return 0;
  return a.delivery - b.delivery || a.part - b.part;
}

/** A message's own text, caption and file name (not its items'). */
function ownTexts(message: ObservedMessage): string[] {
  return [message.text, message.caption, message.fileName].filter((text) => text !== undefined);
}

function collectTexts(message: ObservedMessage, into: string[]): void {
  into.push(...ownTexts(message));
  for (const item of message.items ?? []) collectTexts(item, into);
}

/**
 * The first pair of messages a chat shows out of order, in words: a later delivery's part
 * before an earlier delivery's (deliveries to the chat in history order), or parts of one
 * delivery out of part order.
 */
function firstOutOfOrder(
  order: readonly MarkerPlace[],
  deliveries: readonly JudgedDelivery[],
): string | undefined {
  for (let i = 1; i < order.length; i += 1) {
    const before = order[i - 1] as MarkerPlace;
    const after = order[i] as MarkerPlace;
    const backwards =
      after.delivery < before.delivery || (after.delivery === before.delivery && after.part < before.part);
    if (backwards)
      return `${deliveries[after.delivery]?.parts[after.part]} shows after ${deliveries[before.delivery]?.parts[before.part]}`;
  }
  return undefined;
}
