/**
 * The Outbox demo: a showcase reply delivered through the Telegram adapter (real grammY
 * client, real HTTP) to the built-in Bot API emulator, then through the Slack adapter (real
 * WebClient) to the built-in Web API emulator, with what arrived printed beside each
 * receipt. No token, no network: everything runs on 127.0.0.1.
 *
 * Run: npx -y pnpm@10.34.8 install && npx -y pnpm@10.34.8 demo
 */
import type { LookupFunction } from "node:net";
import { fixturesDir } from "@outbox/conformance";
import type { DeliveryReceipt, ReplyPayloadInput } from "@outbox/core";
import { createEmulatedChannel as createEmulatedSlackChannel } from "@outbox/slack/testing";
import { createTelegramAdapter } from "@outbox/telegram";
import { type ObservedMessage, startTelegramEmulator } from "@outbox/telegram/testing";

const CHAT = 4242;

/** A resolver for the demo: `metadata.outbox.test` is an internal address, as a cloud metadata service would be. */
const lookup = ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
  const address = hostname === "metadata.outbox.test" ? "169.254.169.254" : "203.0.113.7";
  if ((options as { all?: boolean }).all) callback(null, [{ address, family: 4 }]);
  else callback(null, address, 4);
}) as LookupFunction;

const longSection = Array.from(
  { length: 40 },
  (_, i) =>
    `${i + 1}. Step ${i + 1} of the migration: check the **${i % 2 ? "replica" : "primary"}**, run \`migrate --step ${i + 1}\`, and confirm the row counts match before moving on to the next table.`,
).join("\n");

const showcase = `# Migration report [[reply_to_current]]

Everything is *done*: ~~3~~ **0** errors, <script> tags are shown as text & nothing leaks.

\`\`\`sql
SELECT count(*) FROM orders; -- MEDIA: /etc/passwd is literal inside code
\`\`\`

${longSection}

MEDIA: ./image.png
MEDIA: ./photo.jpg
MEDIA: ./voice.ogg
MEDIA: https://metadata.outbox.test/latest/credentials.png
[[audio_as_voice]]`;

const captioned: ReplyPayloadInput = {
  text: "The chart, as a **photo** with its caption.",
  mediaUrls: ["./image.png"],
};

async function main(): Promise<void> {
  const emulator = await startTelegramEmulator({ chats: [{ id: CHAT }] });
  const question = emulator.seedMessage(CHAT, "How did the migration go?");
  const telegram = createTelegramAdapter({
    token: emulator.token,
    apiRoot: emulator.apiRoot,
    media: { workspaceDir: fixturesDir, localRoots: [fixturesDir], lookup },
  });
  try {
    const target = { to: String(CHAT), currentMessageId: question };
    const first = await telegram.send({ text: showcase }, target);
    const afterFirst = emulator.observe(CHAT).length;
    const second = await telegram.send(captioned, { to: String(CHAT) });
    const observed = emulator.observe(CHAT);
    print(
      "1. showcase reply (long, formatted, album, voice note, a blocked internal URL)",
      first,
      observed.slice(0, afterFirst),
    );
    print("2. one image with its caption", second, observed.slice(afterFirst));
    console.log(
      `\nrequests the emulator answered: ${emulator.requests.map((r) => `${r.method} ${r.status}`).join(", ")}`,
    );
  } finally {
    await telegram.close?.();
    await emulator.close();
  }
  await slack();
}

/** The same showcase on Slack: mrkdwn chunks, one multi-file message, the first chunk in the question's thread. */
async function slack(): Promise<void> {
  const channel = await createEmulatedSlackChannel({
    media: { workspaceDir: fixturesDir, localRoots: [fixturesDir], lookup },
  });
  try {
    const receipt = await channel.adapter.send({ text: showcase }, channel.target);
    print(
      "3. the same showcase reply on Slack (mrkdwn, files in one message, voice as audio)",
      receipt,
      channel.observe(),
    );
  } finally {
    await channel.close();
  }
}

/** Print a receipt and what the emulator recorded, side by side per message. */
function print(title: string, receipt: DeliveryReceipt, observed: ObservedMessage[]): void {
  console.log(`\n━━ ${title}\nreceipt: ok=${receipt.ok}, ${receipt.messages.length} messages`);
  receipt.messages.forEach((message, index) => {
    const seen = observed[index];
    console.log(
      `  part ${message.part}  ${message.kind.padEnd(8)} id ${message.id.padEnd(4)} → arrived: ${describe(seen)}`,
    );
  });
  for (const d of receipt.degraded)
    console.log(`  degraded part ${d.part}: ${d.from} → ${d.to} (${d.reason})`);
  for (const f of receipt.failures)
    console.log(`  failed part ${f.part}: ${f.error.code}: ${f.error.message}`);
}

function describe(message: ObservedMessage | undefined): string {
  if (!message) return "(nothing)";
  const reply = message.replyTo ? ` replying to ${message.replyTo}` : "";
  if (message.kind === "album") {
    return `album of ${message.items?.map((i) => `${i.kind} ${i.fileName}`).join(", ")}${reply}`;
  }
  if (message.kind === "text") {
    const text = message.text ?? "";
    return `text, ${text.length} chars${reply}: "${text.slice(0, 60).replace(/\n/g, " ⏎ ")}…"`;
  }
  const caption = message.caption ? `, caption "${message.caption}"` : "";
  return `${message.kind} ${message.fileName ?? ""} (${message.mimeType}, ${message.bytes} bytes)${caption}${reply}`;
}

await main();
