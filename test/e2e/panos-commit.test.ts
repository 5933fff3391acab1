/**
 * Issue 26, item 7: `terraform_provider "panos" { auto_commit = true }` commits the firewall's candidate
 * configuration after each successful apply, as CTS's PAN-OS handler does, through the PAN-OS XML API
 * with the provider's hostname and credentials: the real CLI (`start -once`) against a PAN-OS-API-
 * compatible responder (test/helpers/panos-api-server.ts). The development client stands in for
 * Terraform (as in CTS's own handler tests): the panos provider cannot be downloaded here, and CTS runs
 * its handlers after the development client's apply too.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type PanosApiServer, startPanosApiServer } from "../helpers/panos-api-server.ts";
import { repoRoot, runCli } from "../../harness/run-cli.ts";

const stubModule = join(repoRoot, "test", "plugins", "driver-terraform", "modules", "stub");
const PASSWORD = "panos-s3cret-pw";
const dir = mkdtempSync(join(tmpdir(), "cts-panos-"));
let consul: TestConsulDevServer;
const responders: PanosApiServer[] = [];

beforeAll(async () => {
  consul = await startConsulDevServer();
});
afterAll(async () => {
  await Promise.all(responders.map((responder) => responder.close()));
  await consul?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function responder(): Promise<PanosApiServer> {
  const started = await startPanosApiServer({ username: "cts-admin", password: PASSWORD });
  responders.push(started);
  return started;
}

/** `start -once` (development client) of one task using the panos provider written as `provider`. */
async function runOnce(name: string, provider: string) {
  const file = join(dir, `${name}.hcl`);
  writeFileSync(file, `working_dir = ${JSON.stringify(join(dir, name))}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
driver "terraform" {
  backend "local" {}
}
task {
  name      = "firewall"
  module    = ${JSON.stringify(stubModule)}
  providers = ["panos"]
  condition "services" {
    names = ["web"]
  }
}
${provider}`);
  return await runCli("node", ["start", "-once", "-client-type=development", `-config-file=${file}`]);
}

describe.concurrent("PAN-OS auto_commit", () => {
  it("commits the admin's changes after the apply: keygen, partial commit, job status to the end", async () => {
    const panos = await responder();
    const result = await runOnce("commit", `terraform_provider "panos" {
  hostname    = "${panos.hostname}"
  port        = ${panos.port}
  username    = "cts-admin"
  password    = "${PASSWORD}"
  auto_commit = true
}
`);
    expect(result.code, result.stderr).toBe(0);
    const calls = panos.requests.map((request) => request.fields);
    expect(calls[0]).toEqual({ type: "keygen", user: "cts-admin", password: PASSWORD });
    expect(calls[1]).toEqual({
      type: "commit", action: "partial", key: panos.apiKey,
      cmd: "<commit><description>Consul-Terraform-Sync Commit</description><partial><admin><member>cts-admin</member></admin></partial></commit>",
    });
    const polls = calls.slice(2);
    expect(polls.length).toBeGreaterThanOrEqual(2); // running, then finished
    expect(polls.every((call) => call.type === "op" && call.cmd === "<show><jobs><id>1</id></jobs></show>" && call.key === panos.apiKey)).toBe(true);
    expect(result.stderr).toMatch(/\[INFO\]  \S*driver\.terraform\.panos: commit successful: task_name=firewall provider=panos job_id=1 admin=cts-admin/);
    expect(`${result.stdout}${result.stderr}`).not.toContain(PASSWORD);
  });

  it("sends nothing without auto_commit (pins CTS: its handler then only logs)", async () => {
    const panos = await responder();
    const result = await runOnce("no-auto-commit", `terraform_provider "panos" {
  hostname = "${panos.hostname}"
  port     = ${panos.port}
  username = "cts-admin"
  password = "${PASSWORD}"
}
`);
    expect(result.code, result.stderr).toBe(0);
    expect(panos.requests).toEqual([]);
  });

  it("refuses auto_commit without the admin username, naming the provider and the setting", async () => {
    const panos = await responder();
    const result = await runOnce("no-username", `terraform_provider "panos" {
  hostname    = "${panos.hostname}"
  port        = ${panos.port}
  api_key     = "${panos.apiKey}"
  auto_commit = true
}
`);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`Cannot commit through terraform_provider "panos" (auto_commit = true): the username of the admin whose changes are committed is required (set username or PANOS_USERNAME)`);
    expect(panos.requests).toEqual([]);
  });
});
