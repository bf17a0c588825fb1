import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("core", import.meta.url);
