import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("web", import.meta.url);
