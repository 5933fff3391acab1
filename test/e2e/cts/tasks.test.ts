/**
 * Port of CTS's e2e/tasks_test.go TestTasksUpdate: three tasks on overlapping services (api; api+db;
 * api+web) follow registrations and a deregistration, read from each task's terraform.tfvars the way
 * CTS's test does (every `id = "..."` line). The real CLI under Node, the embedded Consul, real terraform.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import {
  ctsBaseConfig, ctsModules, deregisterService, registerService, seedCtsCatalog, startCtsDaemon, until,
  waitForEvent, waitForReadiness, type CtsDaemon,
} from "./cts-api-support.ts";

const apiTask = "e2e_task_api";
const dbTask = "e2e_task_api_db";
const webTask = "e2e_task_api_web";

function task(name: string, services: string[]): string {
  return `
task {
  name        = "${name}"
  description = "basic read-write e2e task"
  module      = "./local_instances_file"
  condition "services" {
    names = [${services.map((s) => `"${s}"`).join(", ")}]
  }
}
`;
}

describe("CTS e2e tasks_test.go: TestTasksUpdate", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon;
  const dir = mkdtempSync(join(tmpdir(), "cts-e2e-tasks-"));
  const wd = join(dir, "sync-tasks");

  /** CTS's loadTFVarsServiceIDs: the sorted values of every `id = "..."` line. */
  const ids = (name: string) =>
    [...readFileSync(join(wd, name, "terraform.tfvars"), "utf8").matchAll(/\s+id\s+= "([^"]+)/g)].map((m) => m[1]!).sort();
  const all = () => ({ [apiTask]: ids(apiTask), [dbTask]: ids(dbTask), [webTask]: ids(webTask) });

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await seedCtsCatalog(consul.url);
    const port = await freePort();
    writeFileSync(join(dir, "config.hcl"), `${ctsBaseConfig(wd, consul.address)}\nport = ${port}\n${
      task(dbTask, ["api", "db"])}${task(webTask, ["api", "web"])}${task(apiTask, ["api"])}`);
    daemon = startCtsDaemon(join(dir, "config.hcl"), ctsModules, port);
    await waitForReadiness(daemon);
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("once mode: each task's terraform.tfvars holds its services' instances", () => {
    expect(all()).toEqual({ [apiTask]: ["api"], [dbTask]: ["api", "db"], [webTask]: ["api", "web"] });
  });

  it("registering api and web instances updates every task that watches them", async () => {
    let since = Date.now();
    await registerService(consul.url, { ID: "api_new", Name: "api", Address: "5.6.7.8", Port: 8080 });
    await waitForEvent(daemon, webTask, since);
    since = Date.now();
    await registerService(consul.url, { ID: "web_new", Name: "web", Address: "5.6.7.8", Port: 8080 });
    await waitForEvent(daemon, webTask, since);
    const expected = { [apiTask]: ["api", "api_new"], [dbTask]: ["api", "api_new", "db"], [webTask]: ["api", "api_new", "web", "web_new"] };
    // The api and db tasks run on their own schedule: wait for their files, then compare all.
    await until("every task to catch up", () => (JSON.stringify(all()) === JSON.stringify(expected) ? true : undefined));
    expect(all()).toEqual(expected);
  }, 60_000);

  it("deregistering api_new runs all three tasks again", async () => {
    const since = Date.now();
    await deregisterService(consul.url, "api_new");
    for (const name of [apiTask, dbTask, webTask]) await waitForEvent(daemon, name, since);
    expect(all()).toEqual({ [apiTask]: ["api"], [dbTask]: ["api", "db"], [webTask]: ["api", "web", "web_new"] });
  }, 60_000);
});
