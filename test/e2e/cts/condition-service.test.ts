/**
 * @module Ports CTS's e2e/condition_service_test.go (TestCondition_Services with its four cases, both the
 * config-file and the `task create` CLI flavours, and TestCondition_Services_InvalidQueries) onto one
 * daemon (Node, dist/main.js) with the real terraform and the embedded Consul. Where CTS sleeps to prove
 * that a change did NOT trigger a task, a sentinel task (regexp ".*") that the same change does trigger
 * is the barrier: once it ran, the others had their chance too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import {
  registerCtsService, resourceFile, runCtsOnce, startCtsDaemon, tfvarsVariable, eventIds, waitForEvents, waitForNewEvent, type CtsDaemon,
} from "./services-e2e-harness.ts";

// CTS's regexpConfig and namesConfig, with the task name and use_as_module_input filled in.
const regexpTask = (name: string, use: boolean) => `task {
  name = "${name}"
  module = "./test_modules/local_instances_file"
  condition "services" {
    regexp = "api-"
    filter = "Service.Tags not contains \\"tag_a\\""
    cts_user_defined_meta {
      my_meta_key = "my_meta_value"
    }
    use_as_module_input = ${use}
  }
}
`;
const namesTask = (name: string, use: boolean) => `task {
  name = "${name}"
  module = "./test_modules/local_instances_file"
  condition "services" {
    names  = ["api-web"]
    filter = "Service.Tags not contains \\"tag_a\\""
    cts_user_defined_meta {
      my_meta_key = "my_meta_value"
    }
    use_as_module_input = ${use}
  }
}
`;
// TestConditionServices_SuppressTriggers_SharedDependencies: the existing task sharing the consul-kv
// module input, and a consul-kv task on the same key (the barrier for a KV change).
const sharedKvTasks = `task {
  name = "initial_task"
  module = "./test_modules/cts_kv_file"
  condition "services" {
    names = ["web"]
  }
  module_input "consul-kv" {
    path = "test/path"
  }
}
task {
  name = "kv_sentinel"
  module = "./test_modules/cts_kv_file"
  condition "consul-kv" {
    path = "test/path"
  }
}
`;
const sentinelTask = `task {
  name = "sentinel"
  module = "./test_modules/local_file"
  condition "services" {
    regexp = ".*"
  }
}
`;

// TestCondition_Services_InvalidQueries: CTS's null_resource task with each query Consul rejects.
const invalidQueries = [
  ["datacenter", `datacenter = "foo"`, "No path to datacenter"],
  ["filter", `filter = "\\"foo\\" in Service.Bar"`, "Selector"],
  ["namespace_with_oss_consul", `namespace = "foo"`, "Invalid query parameter"],
];
const invalidTask = (name: string, query: string) => `task {
  name = "condition_services_invalid_${name}"
  module = "./test_modules/null_resource"
  condition "services" {
    names  = ["api, web"]
    ${query}
  }
}
`;

/** The four TestCondition_Services cases, each from the config file and (`_cli`) from `task create`. */
const cases = [
  { task: "services_cond_regexp_use", use: true, hcl: regexpTask },
  { task: "services_cond_regexp_use_false", use: false, hcl: regexpTask },
  { task: "services_cond_names_use", use: true, hcl: namesTask },
  { task: "services_cond_names_use_false", use: false, hcl: namesTask },
].flatMap((c) => [{ ...c, cli: false }, { ...c, task: `${c.task}_cli`, cli: true }]);

describe("CTS e2e condition_service_test.go", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon;
  const count = async (task: string) => (await daemon.events(task)).length;
  /** Registers a service no case task may follow and waits until the sentinel ran for it. */
  async function registerUnfollowed(service: { ID: string; Name: string; Tags?: string[] }): Promise<void> {
    const before = await eventIds(daemon, "sentinel");
    await registerCtsService(consul.url, service);
    await waitForNewEvent(daemon, "sentinel", before);
  }

  beforeAll(async () => {
    consul = await startConsulDevServer();
    daemon = await startCtsDaemon(consul.address,
      cases.filter((c) => !c.cli).map((c) => c.hcl(c.task, c.use)).join("\n") + sentinelTask + sharedKvTasks);
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
  });

  // TestCondition_Services _CreateCLI: `task create` answers "yes" and reports "Task '<name>' created".
  it("creates the CLI cases with task create", async () => {
    for (const c of cases.filter((c) => c.cli)) {
      const out = await daemon.createTask(c.hcl(c.task, c.use));
      expect(out.code, out.stdout + out.stderr).toBe(0);
      expect(out.stdout).toContain(`Task '${c.task}' created`);
    }
  }, 180_000);

  // testServicesCondition step 0: one event each, `services = {\n}` whether or not it is module input.
  it("starts with one event per task and an empty services variable", async () => {
    for (const c of cases) {
      expect(await count(c.task), c.task).toBe(1);
      expect(tfvarsVariable(daemon, c.task, "services"), c.task).toContain("{\n}");
    }
  });

  // TestCondition_Services_InvalidQueries, both flavours (the cases side by side): `start -once` exits
  // non-zero with Consul's error; `task create` fails with it and the daemon keeps serving (the later
  // steps prove its tasks are still monitored).
  it("start -once and task create fail with Consul's error on invalid queries", async () => {
    await Promise.all(invalidQueries.map(async ([name, query, message]) => {
      const once = await runCtsOnce(consul.address, invalidTask(name!, query!));
      expect(once.code, once.stdout + once.stderr).not.toBe(0);
      expect(once.stdout + once.stderr, name).toContain(message);
    }));
    for (const [name, query, message] of invalidQueries) {
      const out = await daemon.createTask(invalidTask(name!, query!));
      expect(out.code, out.stdout + out.stderr).not.toBe(0);
      expect((out.stdout + out.stderr).replaceAll("\n", " "), name).toContain(message);
    }
    expect((await fetch(`${daemon.url}/v1/status`)).status).toBe(200);
  }, 180_000);

  // Step 1: "db" matches neither regexp "api-" nor names ["api-web"]: no task runs, services stays empty.
  it("does not trigger on a service outside regexp/names", async () => {
    await registerUnfollowed({ ID: "db-1", Name: "db" });
    for (const c of cases) {
      expect(await count(c.task), c.task).toBe(1);
      expect(tfvarsVariable(daemon, c.task, "services"), c.task).toContain("{\n}");
    }
  }, 120_000);

  // Step 2: api-web-1 triggers every task once; the module writes resources/api-web-1.txt and the
  // tfvars carry cts_user_defined_meta only when use_as_module_input is true.
  it("triggers once on a matching service; module input and meta only with use_as_module_input", async () => {
    await registerCtsService(consul.url, { ID: "api-web-1", Name: "api-web" });
    for (const c of cases) {
      await waitForEvents(daemon, c.task, 1);
      expect(await count(c.task), c.task).toBe(2);
      expect(resourceFile(daemon, c.task, "api-web-1") !== undefined, c.task).toBe(c.use);
      const services = tfvarsVariable(daemon, c.task, "services");
      if (c.use) expect(services, c.task).toContain("my_meta_value");
      else expect(services, c.task).not.toContain("my_meta_value");
    }
  }, 180_000);

  // Step 3: a second api-web instance triggers again; both instance files exist (module input only).
  it("triggers once on a second instance", async () => {
    await registerCtsService(consul.url, { ID: "api-web-2", Name: "api-web" });
    for (const c of cases) {
      await waitForEvents(daemon, c.task, 2);
      expect(await count(c.task), c.task).toBe(3);
      for (const id of ["api-web-1", "api-web-2"]) {
        expect(resourceFile(daemon, c.task, id) !== undefined, `${c.task} ${id}`).toBe(c.use);
      }
    }
  }, 180_000);

  // Step 4: an api-web instance tagged tag_a is filtered out: no run, no file.
  it("does not trigger on an instance the filter drops", async () => {
    await registerUnfollowed({ ID: "api-web-3", Name: "api-web", Tags: ["tag_a"] });
    for (const c of cases) {
      expect(await count(c.task), c.task).toBe(3);
      expect(resourceFile(daemon, c.task, "api-web-3"), c.task).toBeUndefined();
    }
  }, 120_000);

  // TestConditionServices_SuppressTriggers_SharedDependencies (CTS issue 704): a task created through
  // the CLI that shares initial_task's consul-kv module input runs on its own condition only.
  it("a created task sharing a module input runs on its condition, not on the shared KV", async () => {
    const task = "services_cond_cli_w_shared_dep";
    const out = await daemon.createTask(`task {
  name = "${task}"
  module = "./test_modules/cts_kv_file"
  condition "services" {
    regexp = "api"
  }
  module_input "consul-kv" {
    path = "test/path"
  }
}
`);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain(`Task '${task}' created`);
    expect(await count(task)).toBe(1);

    // A change of the shared KV pair runs kv_sentinel (the barrier), not the created task.
    const kvRuns = await eventIds(daemon, "kv_sentinel");
    const put = await fetch(`${consul.url}/v1/kv/test/path`, { method: "PUT", body: "test-value" });
    expect(put.ok).toBe(true);
    await waitForNewEvent(daemon, "kv_sentinel", kvRuns);
    expect(await count(task)).toBe(1);
    expect(resourceFile(daemon, task, "test/path")).toBeUndefined();

    // A service its regexp matches runs it once; the module then sees the KV value too.
    await registerCtsService(consul.url, { ID: "api-test", Name: "api-test" });
    expect((await waitForEvents(daemon, task, 1)).length).toBe(2);
    expect(resourceFile(daemon, task, "api-test")).toBeDefined();
    expect(resourceFile(daemon, task, "test/path")).toBe("test-value");

    // web runs initial_task (its second event), which writes web.txt.
    await registerCtsService(consul.url, { ID: "web", Name: "web" });
    expect((await waitForEvents(daemon, "initial_task", 1)).length).toBe(2);
    expect(resourceFile(daemon, "initial_task", "web")).toBeDefined();
    expect(resourceFile(daemon, task, "test/path")).toBe("test-value");
  }, 180_000);
});
