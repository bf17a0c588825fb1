import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("conformance", import.meta.url);
