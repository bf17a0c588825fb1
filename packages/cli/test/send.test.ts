/**
 * `outbox send`: real delivery with the token from the environment (to a Bot API emulator
 * standing in for Telegram through OUTBOX_TELEGRAM_API_ROOT), `--emulator`, exit codes
 * 0 / 1 / 2, and every error as one line with its fix, the token never printed.
 */
import { fixturesDir } from "@outbox/conformance";
import { startTelegramEmulator, type TelegramEmulator } from "@outbox/telegram/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox, SPAWN_TIMEOUT_MS } from "./support/run-outbox.js";

const TOKEN = "424242:cli-test-secret-token";
let telegram: TelegramEmulator;

beforeAll(async () => {
  telegram = await startTelegramEmulator({ token: TOKEN, chats: [{ id: 42 }], rateLimits: false });
  telegram.seedMessage(42, "/start");
});
afterAll(() => telegram.close());

/** stderr as lines, without the trailing newline. */
const lines = (text: string) => text.trimEnd().split("\n");

describe.concurrent("outbox send", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("delivers for real with OUTBOX_TELEGRAM_TOKEN (exit 0), printing the receipt", async () => {
    const run = await outbox(["send", "telegram", "--to", "42", "Deploy **done**"], {
      env: { OUTBOX_TELEGRAM_TOKEN: TOKEN, OUTBOX_TELEGRAM_API_ROOT: telegram.apiRoot },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^telegram {2}✓ 1 delivered · 0 degraded · 0 failed$/m);
    expect(run.stdout).toMatch(/0 {2}delivered {2}text #\d+/);
    expect(telegram.observe(42).map((m) => m.text)).toContain("Deploy done");
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });

  it("a refused token: exit 2, one line naming the variable, the token itself never printed", async () => {
    const wrong = `${TOKEN}-revoked`;
    const refused = await outbox(["send", "telegram", "--to", "42", "hi"], {
      env: { OUTBOX_TELEGRAM_TOKEN: wrong, OUTBOX_TELEGRAM_API_ROOT: telegram.apiRoot },
    });
    expect(refused.code).toBe(2);
    expect(lines(refused.stderr)).toHaveLength(1);
    expect(refused.stderr).toMatch(/^outbox: part 0 failed: auth_failed: .*Fix: check OUTBOX_TELEGRAM_TOKEN/);
    expect(refused.stdout + refused.stderr).not.toContain("cli-test-secret");
  });

  it("a network failure whose message holds the request URL (and so the token) is printed redacted", async () => {
    const run = await outbox(["send", "telegram", "--to", "42", "hi"], {
      env: { OUTBOX_TELEGRAM_TOKEN: TOKEN, OUTBOX_TELEGRAM_API_ROOT: "http://127.0.0.1:9" },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^outbox: part 0 failed: transport_error: .*Fix: check the network connection/,
    );
    expect(run.stdout + run.stderr).not.toContain("cli-test-secret");
  });

  it("a missing token is bad input: exit 2, one line with the fix, nothing sent", async () => {
    const run = await outbox(["send", "telegram", "--to", "42", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "outbox: OUTBOX_TELEGRAM_TOKEN is not set. Fix: export OUTBOX_TELEGRAM_TOKEN=<token> (create a bot with @BotFather and copy its token), or add --emulator to send to a local emulator\n",
    );
  });

  it("--emulator delivers text, a local file and a reply, and prints what arrived", async () => {
    const run = await outbox(
      ["send", "telegram", "--emulator", "--media", "./image.png", "The **chart** [[reply_to_current]]"],
      { cwd: fixturesDir },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /delivered {2}image #\d+ {2}image image\.png \(image\/png, 95 B\) · reply to #1/,
    );
    expect(run.stdout).toContain("│ The **chart**"); // the caption, its formatting marked up
  });

  it("partly delivered: exit 1; a blocked URL and a path outside the roots each get one line with the fix", async () => {
    const run = await outbox(
      ["send", "telegram", "--emulator", "--media", "https://10.0.0.1/x.png", "--media", "/etc/passwd", "-"],
      { cwd: fixturesDir, input: "Two attachments follow." },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/0 {2}delivered {2}text #\d+/);
    expect(lines(run.stderr)).toEqual([
      expect.stringMatching(
        /^outbox: part 1 failed: media_blocked: .*https:\/\/10\.0\.0\.1\/x\.png.*Fix: use a public https URL/,
      ),
      expect.stringMatching(
        /^outbox: part 2 failed: media_blocked: .*\/etc\/passwd.*Fix: move the file under the working directory, or pass --root <dir>/,
      ),
    ]);
    // The SDK's own advice (MediaPolicy.localRoots) is not the CLI user's fix.
    expect(run.stderr).not.toContain("MediaPolicy");
  });

  it("--json: each failure entry says what the part held, whether it may have gone, whether to resend and what to do", async () => {
    const run = await outbox(["send", "telegram", "--emulator", "--json", "--media", "/etc/passwd", "-"], {
      cwd: fixturesDir,
      input: "One attachment follows.",
    });
    expect(run.code).toBe(1);
    const { receipt } = JSON.parse(run.stdout) as { receipt: { ok: boolean; failures: unknown[] } };
    expect(receipt.ok).toBe(false);
    expect(receipt.failures).toEqual([
      {
        part: 1,
        code: "media_blocked",
        message: expect.stringContaining("/etc/passwd"),
        content: "media /etc/passwd",
        ambiguous: false,
        retryable: false,
        action: expect.stringMatching(/^the media policy refused the reference/),
        ref: "/etc/passwd",
      },
    ]);
  });

  it("an unknown chat: nothing delivered, exit 2, one line saying what --to must be", async () => {
    const real = await outbox(["send", "telegram", "--to", "99", "hi"], {
      env: { OUTBOX_TELEGRAM_TOKEN: TOKEN, OUTBOX_TELEGRAM_API_ROOT: telegram.apiRoot },
    });
    expect(real.code).toBe(2);
    expect(lines(real.stderr)).toEqual([
      expect.stringMatching(
        /^outbox: part 0 failed: target_not_found: .*chat not found\. Fix: check --to: use the numeric chat id/,
      ),
    ]);
    // On the emulator no user writes to the bot: the advice is the emulator's.
    const emulated = await outbox(["send", "telegram", "--emulator", "--to", "99", "hi"]);
    expect(emulated.code).toBe(2);
    expect(lines(emulated.stderr)).toEqual([
      expect.stringMatching(
        /chat not found\. Fix: leave --to out with --emulator: the emulated chat is used/,
      ),
    ]);
  });

  it("bad input is exit 2 with one line: nothing to send, an unknown platform, an unknown option", async () => {
    const [empty, platform, option] = await Promise.all([
      outbox(["send", "telegram", "--emulator"]),
      outbox(["send", "myspace", "hi"]),
      outbox(["send", "telegram", "--bogus", "hi"]),
    ]);
    for (const run of [empty, platform, option]) {
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
    }
    expect(empty.stderr).toMatch(
      /nothing to send\. Fix: give the reply text, - to read it from standard input, or --media/,
    );
    expect(platform.stderr).toMatch(
      /no myspace adapter is installed \(installed: discord, googlechat, matrix, slack, teams, telegram, whatsapp\)\. Fix: /,
    );
    expect(option.stderr).toMatch(/unknown option '--bogus' \(see outbox --help\)/);
  });
});
