/**
 * The HCP Terraform token from Vault, as CTS allows (the one template place outside
 * terraform_provider blocks): `-once` with the embedded Consul, Vault and HCP Terraform servers
 * applies the task in its workspace with a token read from Vault; the token is in no output.
 * Without Vault configured, the same config is refused naming the field.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { startVaultDevServer, type VaultDevServer } from "../../../dev-servers/vault/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { runCli } from "../../../harness/run-cli.ts";
import { registerService } from "../../../harness/driver-terraform/e2e-support.ts";
import { tempDir } from "../../../harness/driver-terraform/terraform-env.ts";
import { stateIds, workspace, writeModule } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

describe("driver \"terraform-cloud\" with its token in Vault", () => {
  let consul: TestConsulDevServer;
  let tfc: TfcDevServer;
  let vault: VaultDevServer;
  const tmp = tempDir("tfc-vault-token");
  const module = writeModule();

  const config = (vaultBlock: string) => `port = 0
working_dir = ${JSON.stringify(join(tmp.path, "sync-tasks"))}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
${vaultBlock}
driver "terraform-cloud" {
  hostname     = "${tfc.url}"
  organization = "${tfc.organization}"
  token        = "{{ with secret \\"secret/tfc\\" }}{{ .Data.data.token }}{{ end }}"
  workspaces {
    prefix = "vault-"
  }
}
task {
  name   = "web-task"
  module = ${JSON.stringify(module.dir)}
  condition "services" {
    names = ["web"]
  }
}
`;

  beforeAll(async () => {
    consul = await startConsulDevServer();
    tfc = await startTfcDevServer();
    vault = await startVaultDevServer();
    await fetch(`${vault.url}/v1/secret/data/tfc`, {
      method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { token: tfc.token } }),
    });
    await registerService(consul.url, "web-1", "web", "10.0.0.1");
  }, 60_000);

  afterAll(async () => {
    await tfc?.stop();
    await vault?.stop();
    await consul?.stop();
    module.remove();
    tmp.remove();
  });

  test("-once applies in the workspace with the token read from Vault, and prints it nowhere", async () => {
    const file = join(tmp.path, "cts.hcl");
    writeFileSync(file, config(`vault {\n  address = "${vault.url}"\n}`));
    const result = await runCli("node", ["start", "-once", `-config-file=${file}`], { cwd: tmp.path, env: { VAULT_TOKEN: vault.rootToken } });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const ws = await workspace(tfc, "vault-web-task");
    expect(ws, "the workspace was created with the Vault token").toBeDefined();
    expect(await stateIds(tfc, ws!.id as string)).toEqual([expect.stringMatching(/^web-1/)]);
    expect(result.stdout + result.stderr).not.toContain(tfc.token);
  }, 120_000);

  test("without Vault configured, the token's template is refused naming the field", async () => {
    const file = join(tmp.path, "no-vault.hcl");
    writeFileSync(file, config(""));
    const result = await runCli("node", ["validate", `-config-file=${file}`], { cwd: tmp.path, env: { VAULT_ADDR: "" } });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("driver.terraform-cloud.token");
    expect(result.stdout + result.stderr).toContain("uses {{ with secret }} but Vault is not configured");
  }, 60_000);
});
