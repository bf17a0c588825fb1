import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("cli", import.meta.url);
