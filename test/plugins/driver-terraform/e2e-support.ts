/**
 * @module Moved to harness/driver-terraform/e2e-support.ts (shared by test/ and bench/). Kept only for test/plugins/status-page/,
 * which another branch changes at the same time: delete once its imports point at harness/.
 */
export * from "../../../harness/driver-terraform/e2e-support.ts";
