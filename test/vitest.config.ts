import { outboxProject } from "../vitest.shared.js";

export default outboxProject("repo", import.meta.url);
