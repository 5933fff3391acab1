/**
 * @module The embedded HCP Terraform-compatible server (`cts-runtime tfc-dev`) as a library, for
 * commands, tests and benchmarks: `startTfcDevServer(options)` → `{ url, address, organization,
 * token, setFaults(), stop() }`. See README.md beside this file for what it answers.
 */
export { startTfcDevServer } from "./src/tfc-dev-server.ts";
export type { TfcDevServer, TfcDevServerOptions } from "./src/tfc-dev-server.ts";
export type { TfcDevFaults } from "./src/http/faults.ts";
export type { TerraformBinary } from "./src/runs/terraform-binary.ts";
