/**
 * The terraform-cloud driver through the testkit's driver conformance suite (what every driver must
 * do, run against the real kernel), with the embedded HCP Terraform server behind it.
 */
import { afterAll, expect } from "vitest";
import { startTfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { describeDriverConformance } from "../../../core/plugin-testkit/mod.ts";
import driverTerraform from "../../../plugins/driver-terraform/mod.ts";
import driverTerraformCloud from "../../../plugins/driver-terraform-cloud/mod.ts";
import vaultClient from "../../../plugins/vault-client/mod.ts";
import { driverBlock, inputsOf, stateIds, task, workspace, writeModule } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

const server = await startTfcDevServer();
const module = writeModule();
afterAll(async () => {
  await server.stop();
  module.remove();
});

describeDriverConformance("terraform-cloud", driverTerraformCloud, {
  driverName: "terraform-cloud",
  // The driver reads a `{{ with secret }}` token through the Vault client service (idle without a
  // vault block), and renders its root module through driver-terraform's terraformRootModuleToken.
  plugins: [vaultClient, driverTerraform],
  driverOptions: driverBlock(server).options,
  task: task("conformance-task", module.dir),
  inputs: [inputsOf("c-1"), inputsOf("c-1", "c-2")],
  async assertApplied(_workingDir, inputs, applied) {
    const ws = await workspace(server, applied.name);
    expect(await stateIds(server, ws.id)).toEqual(Object.keys(inputs.services).map((key) => key.split(".")[0]));
  },
  timeoutMs: 60_000,
});
