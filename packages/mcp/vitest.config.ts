import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("mcp", import.meta.url);
