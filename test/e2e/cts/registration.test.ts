/**
 * Ports of CTS's e2e/registration_test.go: the daemon (the real CLI under Node, real terraform)
 * registers itself in the embedded Consul with CTS's service and health check, deregisters on stop,
 * skips registration when disabled or refused while tasks keep running, and is registered even when
 * its first run of the tasks fails.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import {
  ctsBaseConfig, ctsModules, moduleTask, registerService, seedCtsCatalog, startCtsDaemon, until, waitForEvent,
  waitForReadiness, type CtsDaemon,
} from "./cts-api-support.ts";

interface AgentService { ID: string; Service: string; Address: string; Port: number; Tags: string[] }
interface AgentCheck { CheckID: string; Name: string; Status: string; Notes: string; Output: string; ServiceID: string; ServiceName: string; Type: string }

/** CTS's dbTask. */
const dbTask = `
task {
  name        = "e2e_task_api_db"
  description = "basic read-write e2e task for api & db"
  module      = "./local_instances_file"
  condition "services" {
    names = ["api", "db"]
  }
}
`;

describe("CTS e2e registration_test.go", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon | undefined;
  const dirs: string[] = [];

  beforeEach(async () => {
    consul = await startConsulDevServer();
    await seedCtsCatalog(consul.url);
  });
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    await consul.stop();
  });
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** Writes CTS's baseConfig (+ `extra`) and starts the daemon on a free port. */
  async function start(extra: string, consulExtra = "", port?: number): Promise<{ daemon: CtsDaemon; dir: string; wd: string }> {
    const dir = mkdtempSync(join(tmpdir(), "cts-e2e-registration-"));
    dirs.push(dir);
    const wd = join(dir, "sync-tasks");
    const chosen = port ?? await freePort();
    writeFileSync(join(dir, "config.hcl"), `${ctsBaseConfig(wd, consul.address, consulExtra)}\nport = ${chosen}\n${extra}`);
    daemon = startCtsDaemon(join(dir, "config.hcl"), ctsModules, chosen);
    return { daemon, dir, wd };
  }

  const services = async () => await (await fetch(`${consul.url}/v1/agent/services`)).json() as Record<string, AgentService>;
  const passingCheck = (id: string) => until(`check ${id} passing`, async () => {
    const checks = await (await fetch(`${consul.url}/v1/agent/checks`)).json() as Record<string, AgentCheck>;
    return checks[id]?.Status === "passing" ? checks[id] : undefined;
  }, 30_000);

  it("TestE2E_ServiceRegistration_Defaults: consul-terraform-sync, id cts-*, tag cts, CTS's HTTP check", async () => {
    const { daemon } = await start(moduleTask("registration_w_consul", "./local_instances_file"));
    await waitForReadiness(daemon);
    const found = await until("the CTS service", async () => {
      const list = Object.values(await services()).filter((s) => s.Service === "consul-terraform-sync");
      return list.length > 0 ? list : undefined;
    });
    expect(found).toHaveLength(1);
    const service = found[0]!;
    expect(service.ID.startsWith("cts-")).toBe(true);
    expect(service.Address).toBe("");
    expect(service.Port).toBe(daemon.port);
    expect(service.Tags).toEqual(["cts"]);

    const check = await passingCheck(`${service.ID}-health`);
    expect(check).toMatchObject({
      Type: "http", Name: "CTS Health Status", Status: "passing", Notes: "Check created by Consul-Terraform-Sync",
      ServiceID: service.ID, ServiceName: "consul-terraform-sync",
    });
    expect(check.Output).toContain(`http://localhost:${daemon.port}/v1/health`);
  }, 60_000);

  it("TestE2E_ServiceRegistration_Configured and _DeregisterWhenStopped: the configured service, gone after stop", async () => {
    const port = await freePort();
    const checkAddress = `http://127.0.0.1:${port}`;
    const { daemon } = await start(`id = "cts-01"\n${dbTask}`, `
  service_registration {
    enabled      = true
    service_name = "cts"
    address      = "123.456.789"
    default_check {
      enabled = true
      address = "${checkAddress}"
    }
  }`, port);
    await waitForReadiness(daemon);
    const service = await until("cts-01 registered", async () => (await services())["cts-01"]);
    expect(service).toMatchObject({ Service: "cts", ID: "cts-01", Address: "123.456.789", Port: port, Tags: ["cts"] });
    const check = await passingCheck("cts-01-health");
    expect(check).toMatchObject({ ServiceID: "cts-01", ServiceName: "cts" });
    expect(check.Output).toContain(`${checkAddress}/v1/health`);

    // CTS's StartCTS stop: SIGINT; the service leaves Consul.
    expect(await daemon.stop()).toBe(0);
    expect((await services())["cts-01"]).toBeUndefined();
  }, 60_000);

  for (const [name, setting] of [["registration_failure", `namespace = "invalid"`], ["registration_disabled", "enabled = false"]]) {
    it(`TestE2E_ServiceRegistration_Skipped (${name}): not registered, tasks keep running`, async () => {
      const { daemon, wd } = await start(`id = "cts-01"\n${dbTask}`, `
  service_registration {
    ${setting}
  }`);
      await waitForReadiness(daemon);
      if (name === "registration_failure") {
        // Consul CE refuses namespaces: CTS logs the failure and goes on.
        await until("the registration failure in the log", () =>
          daemon.output().includes("error registering Consul-Terraform-Sync as a service with Consul") || undefined);
      }
      expect((await services())["cts-01"]).toBeUndefined();

      const since = Date.now();
      await registerService(consul.url, { ID: "api_new", Name: "api" });
      await waitForEvent(daemon, "e2e_task_api_db", since);
      readFileSync(join(wd, "e2e_task_api_db", "resources", "api_new.txt"), "utf8");
      expect((await services())["cts-01"]).toBeUndefined();
    }, 60_000);
  }

  it("TestE2E_ServiceRegistration_InitError: the first run fails and CTS exits, registered all the same", async () => {
    const { daemon } = await start(`id = "cts-01"\n${moduleTask("failing_task", "./failing_module")}`);
    const code = await daemon.exited;
    expect(code, daemon.output()).not.toBe(0);
    expect(daemon.output()).toContain("registering Consul-Terraform-Sync as a service with Consul");
    expect((await services())["cts-01"], daemon.output()).toBeDefined();
  }, 60_000);
});
