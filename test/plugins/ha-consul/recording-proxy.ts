/**
 * @module Moved to harness/ha-consul/recording-proxy.ts (shared by test/ and bench/). Kept only for test/plugins/status-page/,
 * which another branch changes at the same time: delete once its imports point at harness/.
 */
export * from "../../../harness/ha-consul/recording-proxy.ts";
