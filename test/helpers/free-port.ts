/**
 * @module Moved to harness/free-port.ts (shared by test/ and bench/). Kept only for test/plugins/status-page/,
 * which another branch changes at the same time: delete once its imports point at harness/.
 */
export * from "../../harness/free-port.ts";
