import { outboxProject } from "../../vitest.shared.js";

export default outboxProject("media-s3", import.meta.url);
