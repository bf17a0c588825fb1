import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("whatsapp", import.meta.url);
