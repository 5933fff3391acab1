/**
 * @module Ports CTS's e2e/condition_catalog_service_test.go onto three daemons (Node, dist/main.js) with
 * the real terraform and the embedded Consul: one from an empty Consul hosting _Registration (both
 * cases), _Regexp, _MultipleTasks and _SharedDependency_NoServices; one from CTS's seeded Consul for
 * _UseAsModuleInput; one with api-1 pre-registered for _SuppressTriggers (services and tags flavours).
 * Where CTS sleeps to prove a change did NOT trigger a task, a task the same change does trigger is
 * the barrier.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import {
  deregisterCtsService, registerCtsService, resourceFile, runCtsOnce, seedCtsServices, startCtsDaemon, tfvarsVariable,
  eventIds, waitForEvents, waitForNewEvent, type CtsDaemon,
} from "./services-e2e-harness.ts";

const catalogTask = (name: string, module: string, regexp: string, use: boolean, extra = "") => `task {
  name = "${name}"
  module = "./test_modules/${module}"
  condition "catalog-services" {
    regexp = "${regexp}"
    use_as_module_input = ${use}
  }
${extra}}
`;

describe("CTS e2e condition_catalog_service_test.go, from an empty Consul", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon;
  const count = async (task: string) => (await daemon.events(task)).length;
  const tags = (task: string, service: string) => resourceFile(daemon, task, `${service}_tags`);

  beforeAll(async () => {
    consul = await startConsulDevServer();
    daemon = await startCtsDaemon(consul.address, [
      // TestCondition_CatalogServices_Registration: use_as_module_input true and false.
      catalogTask("reg_use", "local_tags_file", "^api$", true),
      catalogTask("reg_use_false", "local_instances_file", "^api$", false),
      // TestCondition_CatalogServices_Regexp.
      catalogTask("regexp_task", "local_tags_file", "api-", true),
      // TestCondition_CatalogServices_MultipleTasks.
      catalogTask("api_task", "local_tags_file", "api", true),
      catalogTask("api_web_task", "local_tags_file", "^api$|^web$", true),
      catalogTask("all_task", "local_tags_file", ".*", true),
      // TestCondition_CatalogServices_SharedDependency_NoServices: the existing task.
      `task {
  name = "init_task"
  module = "./test_modules/local_instances_file"
  condition "services" {
    names = ["api"]
    use_as_module_input = true
  }
}
`,
      // The barrier for _SuppressTriggers_SharedDependencies: a services task new web-test instances run.
      `task {
  name = "web_sentinel"
  module = "./test_modules/local_file"
  condition "services" {
    regexp = "web"
  }
}
`,
    ].join("\n"));
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
  });

  // _Registration step 0 and _Regexp step 0: one event, empty catalog_services, no api_tags.txt yet
  // (daemon mode passes through once mode with nothing registered).
  it("starts with one event per task and an empty catalog_services", async () => {
    for (const task of ["reg_use", "reg_use_false", "regexp_task", "api_task", "api_web_task", "all_task"]) {
      expect(await count(task), task).toBe(1);
    }
    expect(tfvarsVariable(daemon, "regexp_task", "catalog_services")).toContain("{\n}");
    expect(tags("reg_use", "api")).toBeUndefined();
  });

  // _SharedDependency_NoServices: creating, through the API, a catalog-services task that shares the
  // existing task's `api` module input, with run unset / inspect / now, answers (does not hang).
  it.each([["create", undefined], ["inspect", "inspect"], ["create_and_run", "now"]])(
    "creates a task sharing a dependency with no matching service (%s)", async (name, run) => {
      const response = await fetch(`${daemon.url}/v1/tasks${run ? `?run=${run}` : ""}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          task: {
            name: `created_task_${name}`,
            module: "./test_modules/local_tags_file",
            condition: { catalog_services: { regexp: "web" } },
            module_input: { services: { names: ["api"] } },
          },
        }),
        signal: AbortSignal.timeout(60_000),
      });
      expect(response.status, await response.clone().text()).toBe(run === "inspect" ? 200 : 201);
    }, 90_000);

  // TestCondition_CatalogServices_InvalidQueries, both flavours, with CTS's null_resource module (it
  // declares no catalog_services): CTS queries Consul before terraform validates, so Consul's error shows.
  it("start -once and task create fail with Consul's error on invalid queries", async () => {
    const cases = [
      ["datacenter", `datacenter = "foo"`, "No path to datacenter"],
      ["namespace_with_oss_consul", `namespace = "foo"`, "Invalid query parameter"],
    ];
    const task = (name: string, query: string) => `task {
  name = "condition_catalog_services_invalid_${name}"
  module = "./test_modules/null_resource"
  condition "catalog-services" {
    regexp = ".*"
    ${query}
  }
}
`;
    await Promise.all(cases.map(async ([name, query, message]) => {
      const once = await runCtsOnce(consul.address, task(name!, query!));
      expect(once.code, once.stdout + once.stderr).not.toBe(0);
      expect(once.stdout + once.stderr, name).toContain(message);
    }));
    for (const [name, query, message] of cases) {
      const created = await daemon.createTask(task(name!, query!));
      expect(created.code, created.stdout + created.stderr).not.toBe(0);
      expect((created.stdout + created.stderr).replaceAll("\n", " "), name).toContain(message);
    }
    expect((await fetch(`${daemon.url}/v1/status`)).status).toBe(200);
  }, 180_000);

  // _Regexp step 1 and _MultipleTasks step 3: "db" runs only all_task (the barrier), nothing else.
  it("runs only the tasks whose regexp matches a new service", async () => {
    await registerCtsService(consul.url, { ID: "db-1", Name: "db" });
    await waitForEvents(daemon, "all_task", 1);
    expect(tags("all_task", "db")).toBe("");
    for (const task of ["reg_use", "reg_use_false", "regexp_task", "api_task", "api_web_task"]) {
      expect(await count(task), task).toBe(1);
      expect(tags(task, "db"), task).toBeUndefined();
    }
    expect(tfvarsVariable(daemon, "regexp_task", "catalog_services")).toContain("{\n}");
  }, 120_000);

  // _Regexp step 2: api-web runs regexp_task once; catalog_services holds `"api-web" = []`.
  it("renders a matching service's empty tag list", async () => {
    await registerCtsService(consul.url, { ID: "api-web-1", Name: "api-web" });
    await waitForEvents(daemon, "regexp_task", 1);
    await waitForEvents(daemon, "all_task", 2);
    expect(await count("regexp_task")).toBe(2);
    expect(tfvarsVariable(daemon, "regexp_task", "catalog_services")).toContain(`"api-web" = []`);
    expect(tags("regexp_task", "api-web")).toBe("");
    expect(tags("regexp_task", "db")).toBeUndefined();
  }, 120_000);

  // _Registration step 1 and _MultipleTasks step 1: the first api instance runs every ^api$/api task.
  it("runs on the first instance of a service", async () => {
    const before = await eventIds(daemon, "all_task");
    await registerCtsService(consul.url, { ID: "api-1", Name: "api" });
    for (const task of ["reg_use", "reg_use_false"]) expect((await waitForEvents(daemon, task, 1)).length, task).toBe(2);
    await waitForEvents(daemon, "api_web_task", 1);
    await waitForEvents(daemon, "api_task", 2);
    await waitForNewEvent(daemon, "all_task", before);
    for (const task of ["reg_use", "api_task", "api_web_task", "all_task"]) expect(tags(task, "api"), task).toBe("");
    // use_as_module_input = false: catalog_services is not module input (the module only sees services).
    expect(readdirSync(join(daemon.workDir, "reg_use_false")).includes("resources")).toBe(false);
  }, 120_000);

  // _MultipleTasks step 2: web runs api_web_task and all_task, not api_task.
  it("runs only the tasks whose regexp matches web", async () => {
    const before = await eventIds(daemon, "all_task");
    await registerCtsService(consul.url, { ID: "web-1", Name: "web" });
    await waitForEvents(daemon, "api_web_task", 2);
    await waitForNewEvent(daemon, "all_task", before);
    expect(tags("all_task", "web")).toBe("");
    expect(tags("api_web_task", "web")).toBe("");
    expect(tags("api_task", "web")).toBeUndefined();
    expect(await count("api_task")).toBe(3);
  }, 120_000);

  // _Registration step 2: the last instance deregistering runs the task; the module destroys api_tags.txt.
  it("runs when the last instance deregisters", async () => {
    await deregisterCtsService(consul.url, "api-1");
    for (const task of ["reg_use", "reg_use_false"]) expect((await waitForEvents(daemon, task, 2)).length, task).toBe(3);
    expect(tags("reg_use", "api")).toBeUndefined();
  }, 120_000);
  // TestCondition_CatalogServices_SuppressTriggers_SharedDependencies (CTS issue 704): a task created
  // through the CLI whose module input (services api) is init_task's condition runs on new catalog
  // services only. CTS registers web-test before start-up; here it comes after the steps above.
  it("a created task sharing init_task's services runs on new catalog services only", async () => {
    const task = "cs_cond_cli_w_shared_dep";
    let barrier = await eventIds(daemon, "web_sentinel");
    await registerCtsService(consul.url, { ID: "web-1", Name: "web-test" });
    await waitForNewEvent(daemon, "web_sentinel", barrier);
    const out = await daemon.createTask(`task {
  name = "${task}"
  module = "./test_modules/cts_cs_file"
  condition "catalog-services" {
    regexp = "web"
  }
  module_input "services" {
    names = ["api"]
  }
}
`);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain(`Task '${task}' created`);
    expect(await count(task)).toBe(1);

    // Another web-test instance, with a tag: no run (web_sentinel is the barrier).
    barrier = await eventIds(daemon, "web_sentinel");
    await registerCtsService(consul.url, { ID: "web-2", Name: "web-test", Tags: ["tag_a"] });
    await waitForNewEvent(daemon, "web_sentinel", barrier);
    expect(await count(task)).toBe(1);

    // The shared service api: init_task runs (and writes api.txt), the created task does not.
    const initRuns = await eventIds(daemon, "init_task");
    await registerCtsService(consul.url, { ID: "api", Name: "api" });
    await waitForNewEvent(daemon, "init_task", initRuns);
    expect(resourceFile(daemon, "init_task", "api")).toBeDefined();
    expect(await count(task)).toBe(1);

    // A new catalog service runs it; the module sees api and every web-test tag.
    await registerCtsService(consul.url, { ID: "web-test-new", Name: "web-test-new", Tags: ["tag_b"] });
    expect((await waitForEvents(daemon, task, 1)).length).toBe(2);
    expect(resourceFile(daemon, task, "services_api")).toBeDefined();
    expect(resourceFile(daemon, task, "tags_web-test-new")).toBe("tag_b");
    expect(resourceFile(daemon, task, "tags_web-test")).toBe("tag_a");
  }, 180_000);
});


// TestCondition_CatalogServices_UseAsModuleInput: against CTS's seeded Consul, regexp "db|web" gives
// the module exactly db and web with all their tags.
describe("CTS e2e condition_catalog_service_test.go, from CTS's seeded Consul", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon;

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await seedCtsServices(consul);
    daemon = await startCtsDaemon(consul.address, catalogTask("catalog_task", "local_tags_file", "db|web", true));
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
  });

  it("passes the matching services and their tags to the module", () => {
    expect(readdirSync(join(daemon.workDir, "catalog_task", "resources")).sort()).toEqual(["db_tags.txt", "web_tags.txt"]);
    expect(resourceFile(daemon, "catalog_task", "db_tags")).toBe("tag3,tag4");
    expect(resourceFile(daemon, "catalog_task", "web_tags")).toBe("tag2");
  });
});

// TestCondition_CatalogServices_SuppressTriggers: ServicesTrigger and TagsTrigger flavours at once
// (api-1 starts tagged tag_a; api-2 brings tag_b; db-1 brings tag_c), both use_as_module_input cases.
describe("CTS e2e condition_catalog_service_test.go, suppressed triggers", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon;
  const cases = [{ task: "catalog_task_use", use: true }, { task: "catalog_task_use_false", use: false }];
  const moduleInput = `  module_input "services" {
    names = ["api", "db"]
  }
`;

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await registerCtsService(consul.url, { ID: "api-1", Name: "api", Tags: ["tag_a"] });
    daemon = await startCtsDaemon(consul.address, [
      catalogTask("catalog_task_use", "local_tags_file", "^api$|^db$", true, moduleInput),
      catalogTask("catalog_task_use_false", "local_instances_file", "^api$|^db$", false, moduleInput),
      // The barrier: a services task that api-2 does trigger.
      `task {
  name = "sentinel"
  module = "./test_modules/local_file"
  condition "services" {
    names = ["api"]
  }
}
`,
    ].join("\n"));
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
  });

  it("starts with one event and api-1's instance and tags", async () => {
    for (const { task, use } of cases) {
      expect(await daemon.events(task), task).toHaveLength(1);
      const services = tfvarsVariable(daemon, task, "services");
      expect(services, task).toContain("api-1");
      expect(services, task).toContain("tag_a");
      expect(resourceFile(daemon, task, "api_tags"), task).toBe(use ? "tag_a" : undefined);
    }
  });

  it("does not run for a new instance (with new tags) of a known service", async () => {
    const before = (await daemon.events("sentinel")).length;
    await registerCtsService(consul.url, { ID: "api-2", Name: "api", Tags: ["tag_b"] });
    await waitForEvents(daemon, "sentinel", before);
    for (const { task, use } of cases) {
      expect(await daemon.events(task), task).toHaveLength(1);
      const services = tfvarsVariable(daemon, task, "services");
      expect(services, task).not.toContain("api-2");
      expect(services, task).not.toContain("tag_b");
      expect(resourceFile(daemon, task, "api_tags"), task).toBe(use ? "tag_a" : undefined);
    }
  }, 120_000);

  it("runs for a new service and renders everything that changed meanwhile", async () => {
    await registerCtsService(consul.url, { ID: "db-1", Name: "db", Tags: ["tag_c"] });
    for (const { task, use } of cases) {
      expect((await waitForEvents(daemon, task, 1)).length, task).toBe(2);
      const services = tfvarsVariable(daemon, task, "services");
      for (const text of ["api-2", "db-1", "tag_b", "tag_c"]) expect(services, `${task} ${text}`).toContain(text);
      expect(resourceFile(daemon, task, "api_tags"), task).toBe(use ? "tag_a,tag_b" : undefined);
      expect(resourceFile(daemon, task, "db_tags"), task).toBe(use ? "tag_c" : undefined);
    }
  }, 120_000);
});
