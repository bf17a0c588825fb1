/** Entry point of the `outbox` command. */
import { runCli } from "./program.js";

process.exitCode = await runCli(process.argv);
