import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("slack", import.meta.url);
