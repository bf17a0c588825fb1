import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("telegram", import.meta.url);
