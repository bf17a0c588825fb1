import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("googlechat", import.meta.url);
