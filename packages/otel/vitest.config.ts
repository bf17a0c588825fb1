import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("otel", import.meta.url);
