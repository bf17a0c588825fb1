import { outboxProject } from "../../vitest.shared.js";

/** The pack test: its own project, so `--project repo` stays fast while developing. */
export default outboxProject("pack", import.meta.url);
