/**
 * docs/writing-an-adapter.md keeps a complete small adapter: this test extracts the guide's
 * first code block as written, loads it, and delivers through it to an in-memory Echo client.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type ConformanceHarness,
  conformanceCases,
  conformanceMedia,
  fixturePath,
  fixtureSha256,
  fixturesDir,
  runCase,
  sha256Hex,
} from "@outbox/conformance";
import { type ChannelAdapter, kindOfMimeType, type MediaPolicy, type ObservedMessage } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { runtimeImports } from "./support/imports.js";
import { repoRoot, workspaceNames } from "./support/workspace.js";

/** The guide's "A minimal adapter" block, as written. */
function minimalAdapterSource(): string {
  const guide = readFileSync(join(repoRoot, "docs", "writing-an-adapter.md"), "utf8");
  const section = guide.slice(guide.indexOf("## A minimal adapter"));
  const block = /```ts\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (!block) throw new Error("docs/writing-an-adapter.md: no ```ts block under '## A minimal adapter'");
  return block;
}

/** One post the Echo client received. */
type Post = {
  channel: string;
  text?: string;
  file?: { name: string; type: string; data: Uint8Array };
  replyTo?: string;
  thread?: string;
};

/** An in-memory Echo client: records posts, or throws the queued failures first. */
function echoClient() {
  const posts: Post[] = [];
  const failures: unknown[] = [];
  return {
    posts,
    fail: (failure: unknown) => failures.push(failure),
    client: {
      async post(body: Post) {
        const failure = failures.shift();
        if (failure) throw failure;
        posts.push(body);
        return { id: String(posts.length) };
      },
    },
  };
}

async function loadGuideAdapter(): Promise<
  (config: { client: ReturnType<typeof echoClient>["client"]; media?: MediaPolicy }) => ChannelAdapter
> {
  const dir = join(repoRoot, ".outbox-tmp", "writing-an-adapter");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "echo-adapter.ts");
  writeFileSync(file, minimalAdapterSource());
  const mod = await import(/* @vite-ignore */ file);
  return mod.createEchoAdapter;
}

describe("docs/writing-an-adapter.md", () => {
  it("the minimal adapter, as written, delivers split text, a file and a reply through its client", async () => {
    const createEchoAdapter = await loadGuideAdapter();
    const echo = echoClient();
    const adapter = createEchoAdapter({ client: echo.client, media: { localRoots: [fixturesDir] } });
    const long = `${"word ".repeat(1000)}end`;
    echo.fail({ status: 429, message: "slow down", retryAfterSeconds: 0 });
    const receipt = await adapter.send(
      { text: `${long}\n\nThe chart:`, mediaUrls: [fixturePath("png")], replyToId: "7" },
      { to: "C1", thread: "T1" },
    );
    expect(receipt).toMatchObject({ ok: true, failures: [] });
    expect(echo.posts.every((post) => post.channel === "C1" && post.thread === "T1")).toBe(true);
    const texts = echo.posts.filter((post) => !post.file).map((post) => post.text ?? "");
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect(texts.every((text) => text.length <= 4000)).toBe(true);
    expect(texts.join(" ")).toContain("end");
    const file = echo.posts.find((post) => post.file);
    expect(file?.file?.type).toBe("image/png");
    expect(sha256Hex(file?.file?.data ?? new Uint8Array())).toBe(fixtureSha256("png"));
    expect(echo.posts[0]?.replyTo).toBe("7");
    await adapter.close?.();
  });

  it("the minimal adapter maps a 401 onto AuthError in the receipt", async () => {
    const createEchoAdapter = await loadGuideAdapter();
    const echo = echoClient();
    const adapter = createEchoAdapter({ client: echo.client });
    echo.fail({ status: 401, message: "bad token" });
    const receipt = await adapter.send({ text: "hello" }, { to: "C1" });
    expect(receipt.ok).toBe(false);
    expect(receipt.failures[0]?.error.name).toBe("AuthError");
    expect(echo.posts).toEqual([]);
  });

  it.each(["text.plain", "text.lines", "text.lists", "media.image.file", "reply.text", "thread.text"])(
    "a harness built like the guide's, through createEchoAdapter, passes %s",
    async (id) => {
      const createEchoAdapter = await loadGuideAdapter();
      const harness: ConformanceHarness = {
        name: "echo (the guide's adapter)",
        async setup() {
          const { policy } = await conformanceMedia();
          const echo = echoClient();
          const adapter = createEchoAdapter({ client: echo.client, media: policy });
          return {
            adapter,
            target: { to: "C1" },
            observe: () => echo.posts.map((post) => observed(post)),
            inject: () => {},
            teardown: async () => adapter.close?.(),
          };
        },
      };
      const testCase = conformanceCases.find((c) => c.id === id);
      expect(testCase, id).toBeDefined();
      expect(await runCase(testCase as NonNullable<typeof testCase>, harness, { strict: true })).toBe(
        "passed",
      );
    },
  );
});

describe("docs/writing-an-adapter.md's checklist: a platform is its own package and the workspace list", () => {
  /** The tools that once kept platform lists of their own. */
  const tools = ["packages/cli", "packages/mcp"];
  const adapters = workspaceNames("adapters");

  it("names the descriptor in the checklist and says what adding a platform touches", () => {
    const guide = readFileSync(join(repoRoot, "docs", "writing-an-adapter.md"), "utf8");
    const checklist = guide.slice(guide.indexOf("## Checklist"));
    expect(checklist).toContain("`src/descriptor.ts`, exported as `./descriptor`");
    expect(checklist).toContain("touches its own folder under `adapters/` and the\nworkspace list");
  });

  it.each(adapters)("%s exports ./descriptor, and the workspace root lists it", (name) => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, "adapters", name, "package.json"), "utf8"));
    expect(pkg.exports["./descriptor"]?.source).toBe("./src/descriptor.ts");
    const root = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
    expect(root.devDependencies[pkg.name]).toBe("workspace:^");
  });

  it.each(tools)("%s imports no adapter and depends on none: it reads descriptors", (tool) => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, tool, "package.json"), "utf8"));
    const named = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.devDependencies });
    const specifiers = [...runtimeImports(join(repoRoot, tool, "src", "index.ts"))];
    for (const name of adapters) {
      expect(named, `${tool}/package.json`).not.toContain(`@outbox/${name}`);
      expect(
        specifiers.filter((spec) => spec.startsWith(`@outbox/${name}`)),
        tool,
      ).toEqual([]);
    }
  });
});

/** What the Echo platform shows for a post: its text (or caption) as written, its file's bytes. */
function observed(post: Post): ObservedMessage {
  const place = {
    ...(post.replyTo === undefined ? {} : { replyTo: post.replyTo }),
    ...(post.thread === undefined ? {} : { thread: post.thread }),
  };
  if (!post.file) return { kind: "text", text: post.text ?? "", ...place };
  const kind = kindOfMimeType(post.file.type);
  return {
    kind: kind === "animation" ? "image" : kind,
    ...(post.text === undefined ? {} : { caption: post.text }),
    fileName: post.file.name,
    mimeType: post.file.type,
    sha256: sha256Hex(post.file.data),
    bytes: post.file.data.byteLength,
    ...place,
  };
}
