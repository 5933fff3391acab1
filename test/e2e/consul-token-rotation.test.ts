/**
 * The Consul token in Vault (issue 30 item 1, CTS#825 and CTS#530) end to end: the real daemon
 * reads `consul { token = "{{ with secret ... }}" }` from the embedded Vault and talks to the
 * embedded Consul with ACLs on. The token is rotated in Vault (a new KV v2 version) while the task's
 * blocking query is parked: the query is asked again at the index it had with the new token, the
 * task's Terraform backend gets the new token, and once the old token is revoked a new service
 * still runs the task (the watch kept going, the state was written with the new token). No token
 * is in any log line or API answer.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AclRule } from "../../dev-servers/consul/mod.ts";
import type { FaultRequest } from "../../dev-servers/consul/src/http/fault-hook.ts";
import { startVaultDevServer, type VaultDevServer } from "../../dev-servers/vault/mod.ts";
import type { RunRecord } from "../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type DaemonProcess, startDaemon, waitForDaemon } from "../helpers/daemon-process.ts";
import { freePort } from "../../harness/free-port.ts";
import { runCli } from "../../harness/run-cli.ts";
import { until } from "../../harness/until.ts";
import { demoModule, readServiceLines } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const tmp = tempDir("consul-token-rotation");
const dir = tmp.path;
const OLD_TOKEN = "0f6c1d2e-old0-4a1b-9c3d-5e6f7a8b9c0d";
const NEW_TOKEN = "8a7b6c5d-new0-4e3f-8a1b-2c3d4e5f6a7b";
/** What CTS's docs ask of its token: read the watched catalog, write its state and sessions. */
const RULES: readonly AclRule[] = (["service", "node", "key", "session", "agent"] as const)
  .map((resource) => ({ resource, prefix: "", policy: "write" as const }));
let consul: TestConsulDevServer;
let vault: VaultDevServer;
let daemon: DaemonProcess;
let api = "";
const requests: FaultRequest[] = [];

const writeToken = (token: string) => fetch(`${vault.url}/v1/secret/data/cts/consul`, {
  method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { token } }),
});
const register = (id: string, address: string) => fetch(`${consul.url}/v1/agent/service/register`, {
  method: "PUT", headers: { "X-Consul-Token": "root" }, body: JSON.stringify({ ID: id, Name: "web", Address: address, Port: 80 }),
});
const watched = (token: string) => requests.filter((request) => request.path === "/v1/health/service/web" && request.token === token);

async function bounded<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  try {
    return await until(what, probe, 120_000, 100);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${daemon.output().slice(-8000)}`);
  }
}

async function ended(): Promise<RunRecord[]> {
  const answer = await fetch(`${api}/v1/tasks/web/runs?limit=50`);
  const runs = answer.ok ? ((await answer.json()) as { runs: RunRecord[] }).runs : [];
  return runs.filter((run) => run.outcome !== "running" && run.outcome !== "skipped");
}

beforeAll(async () => {
  consul = await startConsulDevServer({ aclToken: "root", faults: (request) => void requests.push(request) });
  consul.acl.grant(OLD_TOKEN, RULES);
  vault = await startVaultDevServer();
  await writeToken(OLD_TOKEN);
  await register("web-1", "10.0.0.1");
  writeFileSync(join(dir, "web.tfvars"), `output_file = ${JSON.stringify(join(dir, "web.txt"))}\n`);
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  writeFileSync(join(dir, "cts.hcl"), `log_level   = "DEBUG"
port        = ${port}
working_dir = ${JSON.stringify(join(dir, "sync-tasks"))}
consul {
  address = "${consul.address}"
  token   = "{{ with secret \\"secret/cts/consul\\" }}{{ .Data.data.token }}{{ end }}"
  service_registration {
    enabled = false
  }
}
vault {
  address = "${vault.url}"
  token   = "${vault.rootToken}"
}
plugin "vault-client" {
  options = {
    check_interval = "1s"
  }
}
buffer_period {
  enabled = false
}
task {
  name           = "web"
  module         = ${JSON.stringify(demoModule)}
  variable_files = [${JSON.stringify(join(dir, "web.tfvars"))}]
  condition "services" {
    names = ["web"]
  }
}
`);
  daemon = startDaemon("node", join(dir, "cts.hcl"), { cwd: dir, env: terraformTestEnv() });
  await waitForDaemon(daemon, async () => (await fetch(`${api}/v1/status`)).ok, 60_000);
}, 90_000);

afterAll(async () => {
  await daemon?.stop();
  await vault?.stop();
  await consul?.stop();
  tmp.remove();
});

describe("a Consul token rotated in Vault", () => {
  it("is used from the next request on: the watch goes on at its index, the backend writes with it, the old token can go", async () => {
    await bounded("the start-up run", async () => ((await ended()).length === 1 ? true : undefined));
    expect((await ended())[0]!.outcome).toBe("applied");
    const parked = watched(OLD_TOKEN).at(-1)!;
    expect(Number(parked.query.get("index"))).toBeGreaterThan(0);

    consul.acl.grant(NEW_TOKEN, RULES);
    await writeToken(NEW_TOKEN);
    await bounded("the watched query asked with the new token", () => (watched(NEW_TOKEN).length > 0 ? true : undefined));
    await bounded("the task's driver renewed", () => (daemon.output().includes("task driver renewed") ? true : undefined));
    consul.acl.revoke(OLD_TOKEN);
    // Asked again where it was parked, not from scratch.
    expect(watched(NEW_TOKEN)[0]!.query.get("index")).toBe(watched(OLD_TOKEN).at(-1)!.query.get("index"));
    expect(watched(NEW_TOKEN).every((request) => Number(request.query.get("index")) > 0)).toBe(true);

    await register("web-2", "10.0.0.2");
    await bounded("the run after the rotation", async () => ((await ended()).length === 2 ? true : undefined));
    const runs = await ended();
    expect(runs.map((run) => run.outcome)).toEqual(["applied", "applied"]);
    expect(readServiceLines(dir, "web")).toEqual(["web 10.0.0.1:80", "web 10.0.0.2:80"]);
    // Terraform's backend wrote the state with the new token (the old one is refused now).
    const state = requests.filter((request) => request.path.startsWith("/v1/kv/consul-terraform-sync/terraform") && request.method === "PUT");
    expect(state.at(-1)?.token).toBe(NEW_TOKEN);

    const output = daemon.output();
    expect(output).toContain("Consul credentials rotated: the next requests use the new ones, watches continue");
    expect(output).not.toMatch(/Consul rejected|ACL not found/);
    const answers = await Promise.all(["/v1/status/tasks?include=events", "/v1/tasks/web", "/v1/status"]
      .map(async (path) => await (await fetch(`${api}${path}`)).text()));
    for (const token of [OLD_TOKEN, NEW_TOKEN]) {
      expect(output).not.toContain(token);
      for (const answer of answers) expect(answer).not.toContain(token);
    }
  }, 240_000);

  it("validate reads the config without contacting Vault (or Consul)", async () => {
    const file = join(dir, "offline.hcl");
    writeFileSync(file, `consul {
  address = "127.0.0.1:1"
  token   = "{{ with secret \\"secret/cts/consul\\" }}{{ .Data.data.token }}{{ end }}"
}
vault {
  address = "http://127.0.0.1:2"
}
`);
    const result = await runCli("node", ["validate", `-config-file=${file}`]);
    expect(result.stdout + result.stderr).toContain("The configuration is valid");
    expect(result.code).toBe(0);
  });
});
