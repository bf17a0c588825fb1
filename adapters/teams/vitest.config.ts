import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("teams", import.meta.url);
