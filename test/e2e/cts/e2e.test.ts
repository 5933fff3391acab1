/**
 * Port of the daemon scenarios of CTS's e2e/e2e_test.go: TestE2EBasic (two tasks write CTS's
 * module files, keep their state in Consul KV, and follow a registration and a deregistration),
 * TestE2E_ConfigStreamlining_Deprecations (CTS 0.5's deprecated task fields still work; on the
 * same daemon), TestE2ERestartConsul (the daemon follows Consul again after Consul restarts) and
 * TestE2ENoTasks (a daemon started without tasks creates, deletes and re-creates one that then
 * runs on a change). The real daemon, terraform and embedded Consul. The -once/-inspect scenarios
 * are in e2e-modes.test.ts and e2e-start.test.ts.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { waitFor } from "../../../harness/driver-terraform/e2e-support.ts";
import {
  dbTask, dbTaskName, deregisterService, eventCount, makeTempDir, registerService, runSubcommand, startCtsConsul,
  startCtsDaemon, taskStatus, waitForEvents, webTask, webTaskName, type CtsDaemon,
} from "./cts-e2e-harness.ts";

/** TestE2E_ConfigStreamlining_Deprecations's two tasks and service block, as CTS writes them. */
const deprecatedTasks = `
task {
  name = "remove-after-0-8"
  description = "source, services, service deprecation"
  source = "./test_modules/local_instances_file"
  services = ["web"]
}
service {
  name = "web"
  cts_user_defined_meta {
    my_meta_key = "my_meta_value"
  }
}
task {
  name = "remove-in-0-8"
  description = "source_includes_var & source_input deprecation"
  module = "./test_modules/consul_kv_file"
  condition "consul-kv" {
    path = "key"
    source_includes_var = true
  }
  source_input "services" {
    names = ["api"]
  }
}
`;

describe("CTS e2e e2e_test.go: daemon", () => {
  let consul: TestConsulDevServer;
  let basic: CtsDaemon;
  let empty: CtsDaemon;
  beforeAll(async () => {
    consul = await startCtsConsul();
    expect((await fetch(`${consul.url}/v1/kv/key`, { method: "PUT", body: "value" })).ok).toBe(true);
    [basic, empty] = await Promise.all([startCtsDaemon(consul, dbTask + webTask + deprecatedTasks), startCtsDaemon(consul, "")]);
  }, 120_000);
  afterAll(async () => {
    await basic?.stop();
    await empty?.stop();
    await consul?.stop();
  });

  const resources = (task: string) => path.join(basic.dir, task, "resources");
  const file = (task: string, name: string) => readFileSync(path.join(resources(task), name), "utf8");

  it("TestE2EBasic", async () => {
    expect(readdirSync(resources(dbTaskName)).sort()).toEqual(["api.txt", "db.txt"]);
    expect(readdirSync(resources(webTaskName)).sort()).toEqual(["api.txt", "web.txt"]);
    expect(file(dbTaskName, "api.txt")).toBe("1.2.3.4");
    expect(file(webTaskName, "api.txt")).toBe("1.2.3.4");
    expect(file(webTaskName, "web.txt")).toBe("5.6.7.8");
    expect(file(dbTaskName, "db.txt")).toBe("10.10.10.10");
    // CTS's default backend: Consul KV, one state per task.
    for (const task of [dbTaskName, webTaskName]) {
      const state = await fetch(`${consul.url}/v1/kv/consul-terraform-sync/terraform-env:${task}`);
      expect(state.status, task).toBe(200);
    }

    let events = await eventCount(basic, webTaskName);
    await registerService(consul, { ID: "web-1", Name: "web", Address: "5.5.5.5" });
    await waitForEvents(basic, webTaskName, events);
    expect(file(webTaskName, "web-1.txt")).toBe("5.5.5.5");

    events = await eventCount(basic, webTaskName);
    await deregisterService(consul, "web-1");
    await waitForEvents(basic, webTaskName, events);
    await waitFor(() => !existsSync(path.join(resources(webTaskName), "web-1.txt")), () => "web-1.txt is still there", 10_000);
  }, 90_000);

  it("TestE2E_ConfigStreamlining_Deprecations", async () => {
    // CTS checks presence only; web-1 of TestE2EBasic may still be coming or going in this task.
    expect(readdirSync(resources("remove-after-0-8"))).toContain("web.txt");
    const tfvars = readFileSync(path.join(basic.dir, "remove-after-0-8", "terraform.tfvars"), "utf8");
    const services = tfvars.split("\n\n").find((block) => block.replace(/^\n+/, "").startsWith("services"));
    expect(services).toContain("meta_value");
    const task = await (await fetch(`${basic.address}/v1/tasks/remove-after-0-8`)).json() as { task: { condition: { services: { names: string[] } } } };
    expect(task.task.condition.services.names).toEqual(["web"]);
    expect(file("remove-in-0-8", "key.txt")).toBe("value");
    expect(readdirSync(resources("remove-in-0-8"))).toContain("api.txt");
  });

  it("TestE2ERestartConsul: after Consul restarts, a registration still runs the task", async () => {
    await consul.restart();
    const events = await eventCount(basic, dbTaskName);
    await registerService(consul, { ID: "api_new", Name: "api" });
    await waitForEvents(basic, dbTaskName, events);
    await waitFor(() => existsSync(path.join(resources(dbTaskName), "api_new.txt")), () => "no api_new.txt", 10_000);
  }, 90_000);

  it("TestE2ENoTasks: lifecycle operations on a daemon started without tasks", async () => {
    const name = "task_TestE2E_CreateDeleteCreateTrigger";
    const taskFile = path.join(makeTempDir("no-tasks"), "task.hcl");
    writeFileSync(taskFile, `
task {
  name           = "${name}"
  description    = "Creates a new task"
  module         = "./test_modules/local_instances_file"
  condition "services" {
    names = ["web"]
  }
  enabled = true
}`);
    const at = `-http-addr=${empty.address}`;
    const create = ["task", "create", at, `--task-file=${taskFile}`];
    expect((await runSubcommand(create, { input: "yes\n" })).code).toBe(0);
    expect(await taskStatus(empty, name)).toBeDefined();
    expect((await runSubcommand(["task", "delete", at, name], { input: "yes\n" })).code).toBe(0);
    expect(await taskStatus(empty, name)).toBeUndefined();
    const again = await runSubcommand(create, { input: "yes\n" });
    expect(again.code, again.output).toBe(0);
    const base = await eventCount(empty, name);
    await registerService(consul, { ID: "web-2", Name: "web" });
    await waitForEvents(empty, name, base);
    expect(await eventCount(empty, name)).toBe(base + 1);
  }, 90_000);
});
