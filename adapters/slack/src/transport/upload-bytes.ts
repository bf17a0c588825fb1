/**
 * The byte upload of Slack's external upload flow: the item's stream POSTed to the URL
 * `files.getUploadURLExternal` returned, as raw bytes with their length declared, never
 * held in memory, given up after the client's timeout like every Web API call. The URL is
 * signed, so it never appears in an error message.
 */
import { type LoadedMedia, PlatformError, RateLimitedError, redactedExcerpt } from "@outbox/core";
import type { SlackClient } from "./client.js";
import { fromNetwork } from "./errors.js";

const METHOD = "files.upload (upload URL)";

/** Stream one item to its upload URL; throws core's errors on refusal or network failure. */
export async function uploadBytes(
  client: SlackClient,
  uploadUrl: string,
  media: LoadedMedia,
  signal?: AbortSignal,
): Promise<void> {
  let response: Response;
  const timeout = AbortSignal.timeout(client.timeoutMs);
  try {
    response = await client.upload(uploadUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${client.token}`,
        "content-type": "application/octet-stream",
        "content-length": String(media.size),
      },
      body: media.open(),
      duplex: "half",
      redirect: "error",
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    } as RequestInit);
  } catch (error) {
    throw fromNetwork(error, METHOD);
  }
  const text = await response.text().catch(() => "");
  if (response.status === 200) return;
  if (response.status === 429) {
    const seconds = Number(response.headers.get("retry-after") ?? "1");
    throw new RateLimitedError(
      `Slack ${METHOD}: ratelimited`,
      Math.round((Number.isFinite(seconds) ? seconds : 1) * 1000),
    );
  }
  const description = `file_upload_failed: HTTP ${response.status}${text ? ` ${redactedExcerpt(text, [client.token])}` : ""}`;
  throw new PlatformError(`Slack ${METHOD}: ${description}`, {
    method: METHOD,
    status: response.status,
    description,
  });
}
