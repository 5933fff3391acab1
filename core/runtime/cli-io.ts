/** @module The streams, env and working directory a CLI command talks through (the process's, or a test's buffers). */
export type { CliIo } from "../plugin-api/mod.ts";
