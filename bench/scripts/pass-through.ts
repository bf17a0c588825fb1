/**
 * Bytes sent and wall time of one 20 MB document delivered to the Telegram and the WhatsApp
 * emulators uploaded (loaded from a file, posted as multipart) against passed through
 * (`media.passThrough`: an https URL the emulator fetches itself, as Telegram's and Meta's
 * servers do). Everything runs on 127.0.0.1: the emulators, a TLS media host serving the
 * file under a test name the media policy allows and maps to 127.0.0.1, and a TCP relay in
 * front of each emulator that counts what the bot sends.
 * Usage: npx tsx --conditions=source bench/scripts/pass-through.ts [rounds]
 */
import { randomFillSync } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import { createRequire } from "node:module";
import { connect, createServer as createTcpServer, type LookupFunction, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChannelAdapter, MediaPolicy as Policy } from "@outbox/core";
import { createTelegramAdapter } from "@outbox/telegram";
import { createUrlFetcher, startTelegramEmulator } from "@outbox/telegram/testing";
import { createWhatsAppAdapter } from "@outbox/whatsapp";
import { createLinkFetcher, startWhatsAppEmulator } from "@outbox/whatsapp/testing";
import type { Agent as AgentClass } from "undici";
import { fixtureTls } from "../../packages/conformance/src/tls.js";
import { guardLoopback } from "../support/loopback-guard.js";

const SIZE = 20_000_000;
const HOST = "media.outbox.test";
const rounds = Number(process.argv[2] ?? 3);
const guard = guardLoopback();

/** Resolves the media host's test name to 127.0.0.1, as the conformance fixture host does. */
const lookup: LookupFunction = (_hostname, options, callback) => {
  const all = typeof options === "object" && options?.all;
  if (all)
    (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
      { address: "127.0.0.1", family: 4 },
    ]);
  else callback(null, "127.0.0.1", 4);
};

function listen(server: Server | import("node:https").Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    }),
  );
}

const dir = mkdtempSync(join(tmpdir(), "outbox-pass-through-"));
const file = join(dir, "report.pdf");
const body = Buffer.alloc(SIZE);
randomFillSync(body);
body.write("%PDF-1.7\n", 0, "latin1");
writeFileSync(file, body);

const tls = fixtureTls();
const host = createHttpsServer(tls, (req, res) => {
  res.writeHead(200, { "content-type": "application/pdf", "content-length": statSync(file).size });
  if (req.method === "HEAD") return res.end();
  createReadStream(file).pipe(res);
});
// What left the host on the wire (TLS records included), over every connection it accepted.
const sockets: Array<{ bytesWritten: number }> = [];
host.on("secureConnection", (socket) => sockets.push(socket));
const hostWrote = () => sockets.reduce((sum, socket) => sum + socket.bytesWritten, 0);
const hostPort = await listen(host);

let sent = 0;
/** A relay to `port` on 127.0.0.1 that counts the bytes the bot sends through it. */
async function countingRelay(port: number): Promise<{ url: string; close(): void }> {
  const relay = createTcpServer((socket) => {
    const upstream = connect(port, "127.0.0.1");
    socket.on("data", (chunk) => {
      sent += chunk.length;
    });
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  });
  return { url: `http://127.0.0.1:${await listen(relay)}`, close: () => relay.close() };
}

const Agent = createRequire(import.meta.url)("undici/lib/dispatcher/agent.js") as typeof AgentClass;
const policy: Policy = {
  lookup,
  allowHosts: [HOST],
  dispatcher: new Agent({ connect: { ca: tls.cert } }),
  localRoots: [dir],
  timeoutMs: 60_000,
  passThrough: true,
};

/** One platform: its adapter behind a counting relay, what the chat shows last, and how to stop. */
interface Platform {
  adapter: ChannelAdapter;
  to: string;
  shown(): unknown;
  close(): Promise<void>;
}

async function telegram(): Promise<Platform> {
  const emulator = await startTelegramEmulator({
    chats: [{ id: 1 }],
    fetchUrl: createUrlFetcher({ ca: tls.cert, lookup }),
  });
  const relay = await countingRelay(Number(new URL(emulator.apiRoot).port));
  const adapter = createTelegramAdapter({ token: emulator.token, apiRoot: relay.url, media: policy });
  return {
    adapter,
    to: "1",
    shown: () => {
      const last = emulator.observe(1).at(-1) as { document?: unknown } | undefined;
      return last?.document ?? last;
    },
    close: async () => {
      await adapter.close?.();
      await emulator.close();
      relay.close();
    },
  };
}

async function whatsapp(): Promise<Platform> {
  const emulator = await startWhatsAppEmulator({
    limits: false,
    links: createLinkFetcher({ ca: tls.cert, lookup }),
  });
  const to = "15550001111";
  emulator.seedMessage(to, "hello");
  const relay = await countingRelay(Number(new URL(emulator.graphApiUrl).port));
  const adapter = createWhatsAppAdapter({
    token: emulator.token,
    phoneNumberId: emulator.phoneNumberId,
    graphApiUrl: relay.url,
    timeoutMs: 120_000,
    media: policy,
  });
  return {
    adapter,
    to,
    shown: () => {
      const last = emulator.observe(to).at(-1);
      return last && { kind: last.kind, bytes: last.bytes, sha256: last.sha256 };
    },
    close: async () => {
      await adapter.close?.();
      await emulator.close();
      relay.close();
    },
  };
}

const variants = {
  uploaded: file,
  "passed through": `https://${HOST}:${hostPort}/report.pdf`,
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
for (const [label, start] of [
  ["Telegram", telegram],
  ["WhatsApp", whatsapp],
] as const) {
  const platform = await start();
  const results: Record<
    string,
    Array<{ ms: number; sent: number; served: number; via: string; how: string }>
  > = {};
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? Object.keys(variants) : Object.keys(variants).reverse();
    for (const name of order as Array<keyof typeof variants>) {
      sent = 0;
      const servedBefore = hostWrote();
      const started = performance.now();
      const receipt = await platform.adapter.send({ mediaUrl: variants[name] }, { to: platform.to });
      const ms = performance.now() - started;
      if (!receipt.ok) throw new Error(`${label} ${name}: ${JSON.stringify(receipt.failures)}`);
      results[name] = [
        ...(results[name] ?? []),
        {
          ms,
          sent,
          served: hostWrote() - servedBefore,
          via: receipt.messages[0]?.media?.[0]?.via ?? "upload",
          how: JSON.stringify(platform.shown()),
        },
      ];
    }
  }
  await platform.close();
  for (const [name, runs] of Object.entries(results)) {
    console.log(
      `${label} ${name.padEnd(15)} (receipt: ${runs[0]?.via}) wall ${median(runs.map((r) => r.ms))
        .toFixed(0)
        .padStart(6)} ms (median of ${runs.length}: ${runs.map((r) => r.ms.toFixed(0)).join(", ")})` +
        `  bot → platform ${(median(runs.map((r) => r.sent)) / 1e3).toFixed(1)} kB` +
        `  media host served ${(median(runs.map((r) => r.served)) / 1e3).toFixed(1)} kB`,
      `\n  the chat shows: ${runs[0]?.how}`,
    );
  }
}
host.close();
guard.uninstall();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
