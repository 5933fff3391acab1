/**
 * The `driver "terraform-cloud" {}` block through the real CLI's `validate` (the config loader routes
 * the block to the plugin's schema) and its normalisation: env fallbacks, the deprecated prefix.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { checkRequiredOptions, normalizeTerraformCloudOptions } from "../../../plugins/driver-terraform-cloud/src/options.ts";
import { runCli } from "../../../harness/run-cli.ts";
import { tempDir } from "../../../harness/driver-terraform/terraform-env.ts";

const tmp = tempDir("tfc-config");
afterAll(() => tmp.remove());

function config(name: string, driverBody: string): string {
  const path = join(tmp.path, `${name}.hcl`);
  writeFileSync(path, `driver "terraform-cloud" {
${driverBody}
}
task {
  name   = "web"
  module = "./module"
  condition "services" {
    names = ["web"]
  }
}
`);
  return path;
}

const clean = { TFC_TOKEN: "", TFC_ORGANIZATION: "", TFC_HOSTNAME: "" };

describe("driver \"terraform-cloud\" configuration", () => {
  test("validate accepts the block with the organization and token from TFC_ORGANIZATION / TFC_TOKEN, and never prints the token", async () => {
    const path = config("env", `  workspaces {
    prefix         = "cts_"
    tags           = ["team:net"]
    tags_allowlist = ["team:net"]
    tags_denylist  = ["frozen"]
  }
  required_providers {
    local = { source = "hashicorp/local" }
  }
  tls {
    enabled = true
    verify  = false
  }`);
    const secret = "abc.atlasv1.secret-token-value";
    const result = await runCli("node", ["validate", `-config-file=${path}`], { env: { ...clean, TFC_TOKEN: secret, TFC_ORGANIZATION: "acme" } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(secret);
  });

  test("a missing organization, a bad tag and an unknown field are reported naming the field", async () => {
    // CTS behaviour (reference §1): organization and token are required (env TFC_ORGANIZATION, TFC_TOKEN).
    const missing = await runCli("node", ["validate", `-config-file=${config("missing", "  token = \"t\"")}`], { env: clean });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("organization is required (or set TFC_ORGANIZATION)");

    const bad = await runCli("node", ["validate", `-config-file=${config("bad", `  organization = "acme"
  token        = "t"
  workspaces {
    tags = ["bad tag!"]
  }
  hostnme = "x"`)}`], { env: clean });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`driver.terraform-cloud.workspaces.tags[0]: must match pattern "^[A-Za-z0-9:_-]{1,255}$"`);
    expect(bad.stderr).toContain(`driver.terraform-cloud.hostnme: unknown field "hostnme" (did you mean "hostname"?)`);
  });

  test("terraform_cloud_workspace: agent mode needs a pool; other drivers refuse the block", async () => {
    const path = join(tmp.path, "agent.hcl");
    writeFileSync(path, `driver "terraform-cloud" {
  organization = "acme"
  token        = "t"
}
task {
  name   = "web"
  module = "./module"
  condition "services" {
    names = ["web"]
  }
  terraform_cloud_workspace {
    execution_mode    = "agent"
    terraform_version = "1.9"
  }
}
`);
    const agent = await runCli("node", ["validate", `-config-file=${path}`], { env: clean });
    expect(agent.code).not.toBe(0);
    // CTS rules (reference §1): agent mode requires a pool; the version is exact x.y.z.
    expect(agent.stderr).toContain(`task[0].terraform_cloud_workspace.execution_mode: "agent" requires agent_pool_id or agent_pool_name`);
    expect(agent.stderr).toContain(`task[0].terraform_cloud_workspace.terraform_version: must be an exact version such as 1.9.5, got "1.9"`);

    const other = join(tmp.path, "other.hcl");
    writeFileSync(other, `task {
  name   = "web"
  module = "./module"
  condition "services" {
    names = ["web"]
  }
  terraform_cloud_workspace {
    execution_mode = "remote"
  }
}
`);
    const refused = await runCli("node", ["validate", `-config-file=${other}`], { env: clean });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`terraform_cloud_workspace: is only supported by the "terraform-cloud" driver`);
  });

  test("the driver's view of the checked block: env fallbacks, the deprecated workspace_prefix joins with a dash, both prefixes refused", () => {
    const env = { TFC_HOSTNAME: "tfe.example.com", TFC_ORGANIZATION: "acme", TFC_TOKEN: "t" };
    const options = normalizeTerraformCloudOptions({ workspace_prefix: "cts" }, env);
    expect(options.hostname).toBe("https://tfe.example.com");
    expect(options.organization).toBe("acme");
    // CTS GH-442: the deprecated field joins as "<prefix>-<task>".
    expect(options.workspacePrefix).toBe("cts-");
    expect(normalizeTerraformCloudOptions({ workspaces: { prefix: "cts_" } }, env).workspacePrefix).toBe("cts_");
    expect(normalizeTerraformCloudOptions({}, env).hostname).toBe("https://tfe.example.com");
    expect(normalizeTerraformCloudOptions({ hostname: "https://app.terraform.io/" }, env).hostname).toBe("https://app.terraform.io");
    expect(() => normalizeTerraformCloudOptions({ workspace_prefix: "a", workspaces: { prefix: "b" } }, env))
      .toThrow(/workspace_prefix \(deprecated\) and workspaces.prefix are both set/);
    // Required once, when the plugin initialises (before the kernel checks the body, so as written).
    expect(() => checkRequiredOptions({}, { TFC_ORGANIZATION: "acme" })).toThrow(/token is required \(or set TFC_TOKEN\)/);
    expect(() => checkRequiredOptions({ token: "t" }, {})).toThrow(/organization is required \(or set TFC_ORGANIZATION\)/);
    expect(() => checkRequiredOptions({ organization: "acme", token: '{{ env "TFC_T" }}' }, { TFC_T: "t" })).not.toThrow();
  });
});
