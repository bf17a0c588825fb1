/**
 * A cold start as an integrator pays it, on every cold start of a serverless function: in a
 * fresh project where the packed tarballs of `@outbox/core` and `@outbox/telegram` are
 * installed with npm beside grammY, a fresh `node` process imports the adapter and sends one
 * plain reply to the Telegram emulator (another process, limits off). Next to it, in their own
 * fresh processes: bare grammY (its import, `new Api`, the first `sendMessage`) and, from the
 * bench's own install (the peers suite's), Vercel's Chat SDK with its Telegram adapter (its
 * import and first `postMessage`). Rounds are interleaved with a rotating order; each figure
 * is the median over rounds, each ratio the median of the per-round ratios.
 *
 * Goals (reported): Outbox's import plus first reply at most 1.5× grammY's and below Chat
 * SDK's; the install no bigger than Chat SDK's. Times follow the machine's load, so none is
 * gated. Gated: the install size (a full run, against the baseline) and, in every run, that
 * the import and a plain first reply load none of the heavy dependencies that wait for first
 * use (an absolute gate at 0).
 */
import { execFile } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { HEAVY, heavyProbe } from "../../test/pack/consumer.js";
import { startEmulatorProcess } from "../support/emulator-child.js";
import type { Metric, Suite } from "../support/metrics.js";
import { ratioMetric } from "../support/metrics.js";
import { round, stats } from "../support/stats.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const benchDir = join(root, "bench");
const MB = 1024 * 1024;
const CHAT = 42;
/** A reply with no Markdown in it, as most short replies are. */
const REPLY = "Your order has shipped and should arrive on Thursday. Reply here if anything looks wrong.";
/** The packages an integrator of the Telegram adapter installs from this workspace. */
const PACKED = ["packages/core", "adapters/telegram"];
/**
 * What building them needs besides: the Telegram adapter's declarations import the
 * conformance kit's types (its conformance entry), read from that package's `dist/`.
 */
const BUILT = [...PACKED, "packages/conformance"];

/** A sender measured in its own fresh process. */
type Sender = "outbox" | "grammy" | "chatsdk";

/**
 * The child's program (plain `node`, as an integrator runs it): import, create the client,
 * send one reply, and print the wall and CPU milliseconds of the import and of the whole.
 */
const programs: Record<Sender, string> = {
  outbox: `const { createTelegramAdapter } = await import("@outbox/telegram");
mark();
const adapter = createTelegramAdapter({ token: env.TOKEN, apiRoot: env.API_ROOT });
const receipt = await adapter.send({ text: env.REPLY }, { to: env.CHAT });
if (!receipt.ok) throw new Error(receipt.failures[0]?.error.message);`,
  grammy: `const { Api } = await import("grammy");
mark();
await new Api(env.TOKEN, { apiRoot: env.API_ROOT }).sendMessage(env.CHAT, env.REPLY);`,
  chatsdk: `await import("chat");
const { createTelegramAdapter } = await import("@chat-adapter/telegram");
mark();
const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const adapter = createTelegramAdapter({ botToken: env.TOKEN, apiUrl: env.API_ROOT, mode: "webhook",
  allowUnverifiedWebhooks: true, userName: "bench", logger: silent });
await adapter.postMessage("telegram:" + env.CHAT, { markdown: env.REPLY });`,
};

/** Wraps a program with its clock: the output is one JSON line. */
const timed = (body: string) => `const env = process.env;
const cpu0 = process.cpuUsage(); const t0 = performance.now();
const ms = (usage) => (usage.user + usage.system) / 1000;
let imported;
const mark = () => { imported = { wallMs: performance.now() - t0, cpuMs: ms(process.cpuUsage(cpu0)) }; };
${body}
console.log(JSON.stringify({ imported, replied: { wallMs: performance.now() - t0, cpuMs: ms(process.cpuUsage(cpu0)) } }));`;

/** Runs a program in a fresh `node` process in `cwd`, with the emulator's address; its JSON line. */
async function fresh(cwd: string, program: string, env: Record<string, string>): Promise<unknown> {
  // Real platform credentials never reach the child.
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(TELEGRAM|SLACK|DISCORD)_/.test(key)),
  );
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", program], {
    cwd,
    env: { ...clean, ...env, NODE_OPTIONS: "" },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");
}

/** Newest modification time (ms) of the files under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** Builds the packed packages (and what their build reads) when their `dist/` is missing or older than their sources. */
async function buildIfStale(): Promise<void> {
  const stale = BUILT.filter((dir) => {
    const built = join(root, dir, "dist", "index.js");
    return !existsSync(built) || statSync(built).mtimeMs < newest(join(root, dir, "src"));
  });
  if (stale.length > 0) await run(process.execPath, ["scripts/build.mjs", ...stale], { cwd: root });
}

/** A fresh npm project with the packed tarballs and grammY (at the workspace's version) installed. */
async function freshProject(work: string): Promise<string> {
  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs);
  for (const dir of PACKED) {
    await run("npx", ["-y", "pnpm@10.34.8", "pack", "--pack-destination", tarballs], {
      cwd: join(root, dir),
    });
  }
  const project = join(work, "project");
  mkdirSync(project);
  const grammy = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies.grammy;
  const dependencies = Object.fromEntries([
    ...readdirSync(tarballs).map((file) => [
      file.replace(/^outbox-(.+)-\d.*\.tgz$/, "@outbox/$1"),
      `file:${join(tarballs, file)}`,
    ]),
    ["grammy", grammy],
  ]);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ private: true, type: "module", dependencies }),
  );
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", "--loglevel=error"],
    {
      cwd: project,
      timeout: 240_000,
    },
  );
  return project;
}

/** Where Node finds package `name` from a package in `dir` (the nearest `node_modules/name` upwards). */
function resolvePackage(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

/** Bytes of the files under `dir`, nested `node_modules` left out (they are packages of their own). */
function bytesOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) total += bytesOf(path);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}

/**
 * What installing `names` (from `from`) puts on disk: each package of their dependency
 * closure once (installed optional dependencies and required peers included; optional
 * peers, which npm leaves out, too), in MB of file contents. The same walk serves npm's flat tree and pnpm's linked one.
 */
export function installMb(from: string, names: readonly string[]): number {
  const seen = new Set<string>();
  const visit = (dir: string, name: string) => {
    const found = resolvePackage(dir, name);
    if (found === undefined) return;
    const real = realpathSync(found);
    if (seen.has(real)) return;
    seen.add(real);
    const manifest = JSON.parse(readFileSync(join(real, "package.json"), "utf8"));
    const optionalPeer = (peer: string) => manifest.peerDependenciesMeta?.[peer]?.optional === true;
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !optionalPeer(peer));
    const deps = [...Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }), ...peers];
    // A package's own dependencies resolve from where its files are (pnpm links them beside it).
    for (const dep of deps) visit(real, dep);
  };
  for (const name of names) visit(from, name);
  let bytes = 0;
  for (const dir of seen) bytes += bytesOf(dir);
  return round(bytes / MB, 1);
}

/** One fresh process per sender and round, in a rotating order; per sender, its figures by round. */
async function coldRuns(
  rounds: number,
  cwd: Record<Sender, string>,
  env: Record<string, string>,
): Promise<Record<Sender, Array<{ imported: Timing; replied: Timing }>>> {
  const senders: Sender[] = ["outbox", "grammy", "chatsdk"];
  const runs: Record<Sender, Array<{ imported: Timing; replied: Timing }>> = {
    outbox: [],
    grammy: [],
    chatsdk: [],
  };
  for (let i = 0; i < rounds; i += 1) {
    const order = senders.map((_, k) => senders[(i + k) % senders.length] as Sender);
    for (const sender of order) {
      runs[sender].push(
        (await fresh(cwd[sender], timed(programs[sender]), env)) as { imported: Timing; replied: Timing },
      );
    }
  }
  return runs;
}

/** Wall and CPU milliseconds since the process's program started. */
interface Timing {
  wallMs: number;
  cpuMs: number;
}

export const coldStartSuite: Suite = {
  name: "cold-start",
  async run({ quick }) {
    await buildIfStale();
    const work = mkdtempSync(join(tmpdir(), "outbox-cold-"));
    const emulator = await startEmulatorProcess(false, "telegram");
    try {
      const project = await freshProject(work);
      const env = { TOKEN: emulator.token, API_ROOT: emulator.apiRoot, CHAT: String(CHAT), REPLY };
      const cwd = { outbox: project, grammy: project, chatsdk: benchDir };
      const { heavy } = (await fresh(project, heavyProbe(programs.outbox), env)) as { heavy: string[] };
      const runs = await coldRuns(quick ? 3 : 9, cwd, env);
      const series = (sender: Sender, phase: "imported" | "replied") =>
        runs[sender].map((r) => r[phase].wallMs);
      const cpu = (sender: Sender) => runs[sender].map((r) => r.replied.cpuMs);
      const metrics: Metric[] = [];
      for (const sender of ["outbox", "grammy", "chatsdk"] as const) {
        for (const [phase, label] of [
          ["imported", "import"],
          ["replied", "firstReply"],
        ] as const) {
          const figure = stats(series(sender, phase));
          const cpu = stats(runs[sender].map((r) => r[phase].cpuMs));
          metrics.push({
            id: `cold-start.telegram.${label}.${sender}`,
            value: round(figure.median, 1),
            unit: "ms",
            spread: round(figure.spread),
            note: `wall in a fresh process, median of ${figure.n}; CPU ${round(cpu.median, 1)} ms`,
          });
        }
      }
      metrics.push(
        ratioMetric(
          "cold-start.telegram.firstReplyOverGrammy",
          series("outbox", "replied"),
          series("grammy", "replied"),
          {
            goal: { op: "<=", target: 1.5 },
            note: "import and first plain reply, Outbox over bare grammY (median of per-round ratios)",
          },
        ),
        ratioMetric(
          "cold-start.telegram.firstReplyOverChatSdk",
          series("outbox", "replied"),
          series("chatsdk", "replied"),
          {
            goal: { op: "<=", target: 1 },
            note: "import and first plain reply, Outbox over Chat SDK's Telegram adapter",
          },
        ),
        // Under load a process waits for a core, which adds about the same wall time to both
        // sides and pulls the wall ratio towards 1: the CPU ratio carries the goal too.
        ratioMetric("cold-start.telegram.firstReplyCpuOverGrammy", cpu("outbox"), cpu("grammy"), {
          goal: { op: "<=", target: 1.5 },
          note: "the same in process CPU (what a quiet machine's wall time follows)",
        }),
        ratioMetric("cold-start.telegram.firstReplyCpuOverChatSdk", cpu("outbox"), cpu("chatsdk"), {
          goal: { op: "<=", target: 1 },
          note: "the same in process CPU",
        }),
        ratioMetric(
          "cold-start.telegram.importOverGrammy",
          series("outbox", "imported"),
          series("grammy", "imported"),
          {
            note: "import alone, Outbox over bare grammY",
          },
        ),
        {
          id: "cold-start.telegram.heavyLoaded",
          value: heavy.length,
          unit: "count",
          max: 0,
          note: heavy.length > 0 ? `loaded: ${heavy.join(", ")}` : `none of ${HEAVY.join(", ")}`,
        },
      );
      const outbox = installMb(project, ["@outbox/core", "@outbox/telegram", "grammy"]);
      const grammy = installMb(project, ["grammy"]);
      const chatsdk = installMb(benchDir, ["chat", "@chat-adapter/telegram"]);
      metrics.push(
        {
          id: "cold-start.install.outbox",
          value: outbox,
          unit: "MB",
          gate: true,
          note: "@outbox/telegram with core and grammY, npm",
        },
        { id: "cold-start.install.grammy", value: grammy, unit: "MB", note: "grammY alone" },
        {
          id: "cold-start.install.chatsdk",
          value: chatsdk,
          unit: "MB",
          note: "chat and @chat-adapter/telegram",
        },
        {
          id: "cold-start.install.outboxOverChatSdk",
          value: round(outbox / chatsdk, 2),
          unit: "×",
          goal: { op: "<=", target: 1 },
          note: "file contents of each dependency closure",
        },
      );
      return metrics;
    } finally {
      emulator.close();
      rmSync(work, { recursive: true, force: true });
    }
  },
};
