/**
 * The `outbox` command line: commander parses it, each command resolves an exit code, and
 * every error is one line on stderr (tokens redacted) with exit code 2. Commands load on
 * use, so `outbox parse` never loads vitest or a platform library.
 */
import { adapterSecrets, redactSecrets } from "@outbox/core";
import { Command, CommanderError, Option } from "commander";
import type { ConformanceCommandOptions } from "./commands/conformance.js";
import type { DemoOptions } from "./commands/demo.js";
import type { ParseCommandOptions } from "./commands/parse.js";
import type { SendCommandOptions } from "./commands/send.js";
import { explain } from "./output/explain.js";
import { createTerminal, envSecrets, type Terminal } from "./output/terminal.js";
import { adapterArguments, loadOptional, loadPlatforms, type Platforms } from "./platforms.js";

/** Run the command line (`argv` as in `process.argv`); resolves the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const secrets = envSecrets(process.env);
  let code = 0;
  // Only `demo` and `send` (running, or showing their help) use the platforms: the other
  // commands never pay for finding and loading the adapter descriptors.
  let found: Promise<Platforms> | undefined;
  const platforms = () => {
    found ??= loadPlatforms(adapterArguments(argv)).then((loaded) => {
      // The variables each adapter declares secret, whatever they are called (as outbox-mcp
      // redacts them); the platforms load before the terminal is made.
      secrets.push(...adapterSecrets(loaded.list, process.env));
      return loaded;
    });
    return found;
  };
  const names = argv.slice(2).some((arg) => arg === "demo" || arg === "send")
    ? (await platforms()).list.map((platform) => platform.name)
    : ["an installed adapter"];
  const program = new Command("outbox")
    .description(
      "Deliver an AI assistant's reply to chat platforms: try it, parse it, send it, prove an adapter.",
    )
    .addOption(new Option("--color", "style the output (default: when stdout is a terminal)"))
    .addOption(new Option("--no-color", "never style the output"))
    .option(
      "--adapter <package-or-path>",
      "also use this adapter: a package or path exporting an adapter descriptor (repeatable; also OUTBOX_ADAPTERS)",
      collect,
    )
    .exitOverride()
    .configureOutput({
      outputError: (message, write) =>
        write(
          `${redactSecrets(`outbox: ${message.trim().replace(/^error: /, "")} (see outbox --help)`, secrets)}\n`,
        ),
    });
  const terminal = (): Terminal =>
    createTerminal({ color: program.opts<{ color?: boolean }>().color, secrets });
  const run = (action: (term: Terminal) => Promise<number>) => async () => {
    const term = terminal();
    try {
      code = await action(term);
    } catch (error) {
      term.err(`outbox: ${explain(error)}`);
      code = 2;
    }
  };

  program
    .command("demo")
    .description(
      "deliver one showcase reply through every adapter to its local emulator and show what arrived",
    )
    .option("--json", "print the payload, receipts and observed messages as JSON")
    .option("--platform <name>", `only this platform (${names.join(", ")})`)
    .option("--web", "also deliver to the web inbox, print its link, and keep it up until Ctrl-C")
    .option("--web-port <port>", "port of the web inbox (default: a free one)")
    .action((options: DemoOptions) =>
      run(async (term) =>
        (
          await loadOptional(
            "outbox demo's fixture media host (@outbox/conformance)",
            "@outbox/conformance",
            () => import("./commands/demo.js"),
          )
        ).runDemo(term, options, await platforms()),
      )(),
    );

  program
    .command("parse")
    .description("print the normalized payload of a reply as JSON")
    .argument("[file]", "reply text file, or - for standard input (the default when input is piped)")
    .option("--markdown-images", "lift Markdown images with a public https URL into media")
    .option("--untrusted", "the text comes from outside: neutralize MEDIA: lines first")
    .action((file: string | undefined, options: ParseCommandOptions) =>
      run(async (term) => (await import("./commands/parse.js")).runParse(term, file, options))(),
    );

  program
    .command("send")
    .description("deliver one reply with OUTBOX_<PLATFORM>_TOKEN, or to a local emulator with --emulator")
    .argument("<platform>", names.join(" | "))
    .argument("[text]", "the reply (Markdown and directives), or - for standard input")
    .option("--to <id>", "chat or channel id (default with --emulator: the emulated chat)")
    .option("--thread <id>", "thread or topic id")
    .option("--reply-to <id>", "message id to reply to")
    .option("--media <ref>", "https URL or local path of a media item (repeatable)", collect)
    .option("--voice", "send audio as a voice note where the platform has them")
    .option(
      "--root <dir>",
      "directory local media may come from (repeatable; default: the working directory)",
      collect,
    )
    .option("--emulator", "deliver to a local emulator instead of the platform, and print what arrived")
    .option("--json", "print the receipt (and observed messages) as JSON")
    .action((platform: string, text: string | undefined, options: SendCommandOptions) =>
      run(async (term) =>
        (await import("./commands/send.js")).runSend(term, (await platforms()).get(platform), text, options),
      )(),
    );

  program
    .command("conformance")
    .description("run the conformance suite against the harness a module exports (no vitest config needed)")
    .argument("<module>", "package or file exporting a ConformanceHarness or a create…Harness() factory")
    .option("--export <name>", "the export to use when several qualify")
    .option("--strict", "fail the cases the harness skips")
    .option(
      "--only <id>",
      "only this case id, or a group as a prefix ending in . (text.); repeatable",
      collect,
    )
    .action((module: string, options: ConformanceCommandOptions) =>
      run(async (term) =>
        (
          await loadOptional(
            "the conformance suite (@outbox/conformance and vitest)",
            "@outbox/conformance vitest",
            () => import("./commands/conformance.js"),
          )
        ).runConformance(term, module, options),
      )(),
    );

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.exitCode === 0
      ? 0
      : 2;
  }
  return code;
}

/** Collect a repeatable option's values in order. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
