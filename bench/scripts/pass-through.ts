/**
 * Bytes sent and wall time of one 20 MB document delivered to the Telegram emulator uploaded
 * (loaded from a file, posted as multipart) against passed through (an https URL the
 * emulator fetches itself, as Telegram's servers do). Everything runs on 127.0.0.1: the
 * emulator, a TLS media host serving the file under a test name the media policy allows and
 * maps to 127.0.0.1, and a TCP relay in front of the emulator that counts what the bot sends.
 * Usage: npx tsx --conditions=source bench/scripts/pass-through.ts [rounds]
 */
import { randomFillSync } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import { createRequire } from "node:module";
import { connect, createServer as createTcpServer, type LookupFunction, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MediaPolicy } from "@outbox/core";
import { createTelegramAdapter } from "@outbox/telegram";
import { createUrlFetcher, startTelegramEmulator } from "@outbox/telegram/testing";
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

const emulator = await startTelegramEmulator({
  chats: [{ id: 1 }],
  fetchUrl: createUrlFetcher({ ca: tls.cert, lookup }),
});
let sent = 0;
const relay = createTcpServer((socket) => {
  const upstream = connect(Number(new URL(emulator.apiRoot).port), "127.0.0.1");
  socket.on("data", (chunk) => {
    sent += chunk.length;
  });
  socket.pipe(upstream).pipe(socket);
  socket.on("error", () => upstream.destroy());
  upstream.on("error", () => socket.destroy());
});
const relayPort = await listen(relay);

const Agent = createRequire(import.meta.url)("undici/lib/dispatcher/agent.js") as typeof AgentClass;
const policy: MediaPolicy = {
  lookup,
  allowHosts: [HOST],
  dispatcher: new Agent({ connect: { ca: tls.cert } }),
  localRoots: [dir],
  timeoutMs: 60_000,
};
const adapter = createTelegramAdapter({
  token: emulator.token,
  apiRoot: `http://127.0.0.1:${relayPort}`,
  media: policy,
});

const variants = {
  uploaded: file,
  "passed through": `https://${HOST}:${hostPort}/report.pdf`,
};
const results: Record<string, Array<{ ms: number; sent: number; served: number; how: string }>> = {};
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? Object.keys(variants) : Object.keys(variants).reverse();
  for (const name of order as Array<keyof typeof variants>) {
    sent = 0;
    const servedBefore = hostWrote();
    const started = performance.now();
    const receipt = await adapter.send({ mediaUrl: variants[name] }, { to: "1" });
    const ms = performance.now() - started;
    if (!receipt.ok) throw new Error(`${name}: ${JSON.stringify(receipt.failures)}`);
    const last = emulator.observe(1).at(-1) as { document?: { fileSize?: number } } | undefined;
    results[name] = [
      ...(results[name] ?? []),
      { ms, sent, served: hostWrote() - servedBefore, how: JSON.stringify(last?.document ?? last) },
    ];
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
for (const [name, runs] of Object.entries(results)) {
  console.log(
    `${name.padEnd(15)} wall ${median(runs.map((r) => r.ms))
      .toFixed(0)
      .padStart(6)} ms (median of ${runs.length}: ${runs.map((r) => r.ms.toFixed(0)).join(", ")})` +
      `  bot → platform ${(median(runs.map((r) => r.sent)) / 1e3).toFixed(1)} kB` +
      `  media host served ${(median(runs.map((r) => r.served)) / 1e3).toFixed(1)} kB`,
    `\n  the chat shows: ${runs[0]?.how}`,
  );
}
await adapter.close?.();
await emulator.close();
relay.close();
host.close();
guard.uninstall();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
