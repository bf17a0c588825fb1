import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("matrix", import.meta.url);
