import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorRequest, type EmulatorServer, serveEmulator } from "../src/testing/index.js";

/** The platform error of the emulator below: a status and a word. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly word: string,
  ) {
    super(word);
  }
}

let server: EmulatorServer<EmulatorRequest> | undefined;
afterEach(() => server?.close());

/** An emulator of one operation (`POST /send`) on the kit's body reading and authentication. */
async function start(): Promise<{ url: string; bodies: Array<string | undefined> }> {
  const bodies: Array<string | undefined> = [];
  server = await serveEmulator<EmulatorRequest>({
    faultTargets: ["send"],
    entry: (_req, url) => ({ method: url.pathname === "/send" ? "send" : "unknown", status: 0 }),
    faultError: (fault) => new Refusal(fault.kind === "rate-limit" ? 429 : 500, "fault"),
    answerError: (error) =>
      error instanceof Refusal
        ? { status: error.status, body: { error: error.word } }
        : { status: 500, body: { error: String(error) } },
    body: {
      reads: (method) => method === "POST",
      maxBytes: 8,
      tooLarge: () => new Refusal(413, "too large"),
    },
    authenticate: (bearer) => {
      if (bearer !== "good") throw new Refusal(401, "unauthorized");
    },
    handle: async ({ entry, body }) => {
      bodies.push(body);
      if (entry.method !== "send") throw new Refusal(404, "no route");
      return { status: 200, body: { ok: true } };
    },
  });
  return { url: server.url, bodies };
}

const call = async (url: string, method: string, token: string | undefined, body?: string) => {
  const res = await fetch(url, {
    method,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body }),
  });
  return [res.status, ((await res.json()) as { error?: string }).error] as const;
};

describe("serveEmulator reading the body and authenticating for the emulator", () => {
  it("reads the body of the methods asked, logs it, and hands it to handle", async () => {
    const { url, bodies } = await start();
    expect(await call(`${url}/send`, "POST", "good", "hello")).toEqual([200, undefined]);
    expect(await call(`${url}/send`, "GET", "good")).toEqual([200, undefined]);
    expect(bodies).toEqual(["hello", undefined]);
    expect(server?.requests.map((entry) => entry.content)).toEqual(["hello", undefined]);
  });

  it("answers a body over the limit with the emulator's error, before handle", async () => {
    const { url, bodies } = await start();
    expect(await call(`${url}/send`, "POST", "good", "123456789")).toEqual([413, "too large"]);
    expect(bodies).toEqual([]);
  });

  it("refuses an operation without the right Bearer token; a request to anything else reaches handle unchecked", async () => {
    const { url, bodies } = await start();
    expect(await call(`${url}/send`, "POST", undefined, "x")).toEqual([401, "unauthorized"]);
    expect(await call(`${url}/send`, "POST", "bad", "x")).toEqual([401, "unauthorized"]);
    expect(await call(`${url}/elsewhere`, "POST", undefined, "x")).toEqual([404, "no route"]);
    expect(bodies).toEqual(["x"]);
  });

  it("applies the fault once the body is read, before authenticating", async () => {
    const { url, bodies } = await start();
    server?.inject({ kind: "server-error", status: 502, method: "send" });
    expect(await call(`${url}/send`, "POST", undefined, "faulted")).toEqual([500, "fault"]);
    expect(server?.requests[0]?.content).toBe("faulted");
    expect(bodies).toEqual([]);
  });
});
