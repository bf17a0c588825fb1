/**
 * A job as Redis holds it (the BullMQ job's `data`, and the entries of a paused account's
 * lists): {@link JobData} with one-letter names, a target that is only `to` as that string,
 * a payload that is only `text` as that string, a UUID key in 22 characters. A queued reply
 * is mostly this JSON, and the BullMQ job hash that holds it is too big for Redis's compact
 * encoding anyway, so every byte left out is a byte saved per waiting reply. Jobs that an
 * earlier release queued (the long names) are read as they are.
 */
import type { ReplyPayloadInput, Target } from "@outbox/core";
import type { JobData } from "../job.js";

/** {@link JobData} as stored. */
export interface StoredJob {
  /** `platform`. */
  p: string;
  /** `account`, absent for the default account. */
  a?: string;
  /** `payload`: its text alone when it has nothing else. */
  m: string | ReplyPayloadInput;
  /** `target`: its `to` alone when it has nothing else. */
  t: string | Target;
  /** `key`, the idempotency key; absent when it is a UUID (`u`). */
  k?: string;
  /** `key` when it is a lowercase UUID (as the outbox makes them): its 16 bytes in base64url. */
  u?: string;
  /** `replyMode`. */
  r?: JobData["replyMode"];
  /** `attempts`, absent for the default. */
  n?: number;
  /** `backoffMs`, absent for the default. */
  b?: number;
  /** `trace`, the producer's trace context. */
  c?: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The UUID whose 16 bytes are `base64url`. */
function uuidOf(base64url: string): string {
  const hex = Buffer.from(base64url, "base64url").toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether an object has exactly the one property `name`. */
const only = (value: object, name: string): boolean => {
  const names = Object.keys(value);
  return names.length === 1 && names[0] === name;
};

/** The stored form of a job. */
export function storeJob(job: JobData): StoredJob {
  return {
    p: job.platform,
    ...(job.account === undefined ? {} : { a: job.account }),
    m: only(job.payload, "text") && typeof job.payload.text === "string" ? job.payload.text : job.payload,
    t: only(job.target, "to") ? job.target.to : job.target,
    ...(UUID.test(job.key)
      ? { u: Buffer.from(job.key.replaceAll("-", ""), "hex").toString("base64url") }
      : { k: job.key }),
    ...(job.replyMode === undefined ? {} : { r: job.replyMode }),
    ...(job.attempts === undefined ? {} : { n: job.attempts }),
    ...(job.backoffMs === undefined ? {} : { b: job.backoffMs }),
    ...(job.trace === undefined ? {} : { c: job.trace }),
  };
}

/** A job read from Redis: stored by this release ({@link storeJob}) or, with its long names, by an earlier one. */
export function readJob(stored: StoredJob | JobData): JobData {
  if (!("p" in stored)) return stored;
  return {
    platform: stored.p,
    ...(stored.a === undefined ? {} : { account: stored.a }),
    payload: typeof stored.m === "string" ? { text: stored.m } : stored.m,
    target: typeof stored.t === "string" ? { to: stored.t } : stored.t,
    key: stored.u === undefined ? (stored.k as string) : uuidOf(stored.u),
    ...(stored.r === undefined ? {} : { replyMode: stored.r }),
    ...(stored.n === undefined ? {} : { attempts: stored.n }),
    ...(stored.b === undefined ? {} : { backoffMs: stored.b }),
    ...(stored.c === undefined ? {} : { trace: stored.c }),
  };
}
