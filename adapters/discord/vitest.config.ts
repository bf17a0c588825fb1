import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("discord", import.meta.url);
