/**
 * @module Port of CTS's e2e/module_input_test.go against the real daemon (node dist/main.js), the
 * real terraform and the embedded Consul. CTS runs one daemon per case, all on the names api, web
 * and key; here the cases are tasks of one daemon, and the ServicesCondition and ConsulKVCondition
 * cases watch their own names (s-api/s-key, k-api/k-key) so that one case's trigger is not
 * another's. Changes to module_input data alone must not run a task: every task is then checked to
 * have run exactly once more when its condition fires.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { type CtsDaemon, putKv, readFile, registerService, runOnce, startCtsDaemon } from "./kv-schedule-support.ts";

/** CTS's servicesInput and consulKVInput snippets. */
const servicesInput = (query: string, prefix = "") => `
  module = "./test_modules/local_instances_file"
  module_input "services" {
    ${query}
    filter = "Service.Tags not contains \\"filtered\\""
    cts_user_defined_meta {
      meta_key = "meta_value"
    }
  }
${prefix}`;
const consulKVInput = (recurse: boolean, path = "key") => `
  module = "./test_modules/consul_kv_file"
  module_input "consul-kv" {
    path    = "${path}"
    recurse = ${recurse}
  }
`;
/** TestModuleInput_Basic_CatalogServicesCondition's task. */
const catalogTask = (name: string, input: string) => `task {
  name = "${name}"
  condition "catalog-services" {
    regexp              = ["web"]
    use_as_module_input = false
  }
  ${input}
}
`;

// TestModuleInput_Basic_CatalogServicesCondition: its five cases, and "multiple" again created by the CLI.
const BASIC = {
  services_regexp: catalogTask("mi_services_regexp", servicesInput(`regexp = "api"`)),
  services_names: catalogTask("mi_services_names", servicesInput(`names = ["api"]`)),
  consul_kv_recurse_true: catalogTask("mi_consul_kv_recurse_true", consulKVInput(true)),
  consul_kv_recurse_false: catalogTask("mi_consul_kv_recurse_false", consulKVInput(false)),
  // As in CTS, the two snippets set `module` twice: HCL 1's later value (consul_kv_file) wins.
  multiple: catalogTask("mi_multiple", servicesInput(`names = ["api"]`, consulKVInput(false))),
};
const MULTIPLE_CLI = catalogTask("mi_multiple_cli", servicesInput(`names = ["api"]`, consulKVInput(false)));
// TestModuleInput_ServicesCondition: the services condition feeds the module; the consul-kv module_input too.
const servicesTask = (name: string, query: string) => `task {
  name = "${name}"
  condition "services" {
    ${query}
    use_as_module_input = true
  }
  ${consulKVInput(true, "s-key")}
}
`;
// TestModuleInput_ConsulKVCondition.
const KV_CONDITION = `task {
  name = "consul_kv_mi_services"
  condition "consul-kv" {
    path                = "k-key"
    use_as_module_input = false
  }
  ${servicesInput(`regexp = "^k-api$"`)}
}
`;
/**
 * Not in CTS (which sleeps 30 s between the steps): a task whose condition is the same services
 * query as consul_kv_mi_services's module_input, so its run shows the daemon has seen k-api.
 */
const WITNESS = `task {
  name   = "k_api_witness"
  module = "./test_modules/local_instances_file"
  condition "services" {
    regexp = "^k-api$"
    filter = "Service.Tags not contains \\"filtered\\""
  }
}
`;
const TASKS = [
  "mi_services_regexp", "mi_services_names", "mi_consul_kv_recurse_true", "mi_consul_kv_recurse_false", "mi_multiple",
  "mi_multiple_cli", "services_regex_mi_consul_kv", "services_names_mi_consul_kv", "consul_kv_mi_services",
];

describe("CTS e2e module_input_test.go", () => {
  let consul: TestConsulDevServer;
  let cts: CtsDaemon;
  const resource = (task: string, name: string) => readFile(cts.taskPath(task, "resources", `${name}.txt`));

  beforeAll(async () => {
    consul = await startConsulDevServer();
    cts = await startCtsDaemon(consul, "cts-module-input", [
      ...Object.values(BASIC),
      servicesTask("services_regex_mi_consul_kv", `regexp = "^s-api$"`),
      servicesTask("services_names_mi_consul_kv", `names = ["s-api"]`),
      KV_CONDITION,
      WITNESS,
    ].join("\n"));
  }, 120_000);

  afterAll(async () => {
    await cts?.stop();
    await consul?.stop();
  });

  it("module_input data does not run tasks; the condition does, and the run renders that data", async () => {
    const created = await cts.createTask(MULTIPLE_CLI);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    expect(created.stdout).toContain("Task 'mi_multiple_cli' created");
    for (const task of TASKS) {
      // One start-up (or creation) run, with nothing to write yet.
      expect(await cts.events(task), task).toHaveLength(1);
      expect(existsSync(cts.taskPath(task, "resources")), task).toBe(false);
    }

    // 1. Only what the module_inputs watch changes (CTS step 1).
    await registerService(consul, { id: "api", name: "api", address: "10.0.0.1" });
    await registerService(consul, { id: "api-filtered", name: "api", address: "10.0.0.2", tags: ["filtered"] });
    await putKv(consul, "key", "value");
    await putKv(consul, "key/recurse", "value-recurse");
    await putKv(consul, "s-key", "value");
    await putKv(consul, "s-key/recurse", "value-recurse");
    const kApiAt = Date.now();
    await registerService(consul, { id: "k-api", name: "k-api", address: "10.0.0.3" });
    for (const task of TASKS) expect(existsSync(cts.taskPath(task, "resources")), task).toBe(false);
    await cts.waitForEvent("k_api_witness", kApiAt);

    // 2. The conditions fire (CTS step 2): each task runs exactly once more.
    const since = Date.now();
    await registerService(consul, { id: "web", name: "web", address: "10.0.0.4" });
    await registerService(consul, { id: "s-api", name: "s-api", address: "10.0.0.5" });
    await putKv(consul, "k-key", "value");
    for (const task of TASKS) {
      const event = await cts.waitForEvent(task, since);
      expect(event.success, `${task}\n${cts.output().slice(-4000)}`).toBe(true);
      expect(await cts.events(task), task).toHaveLength(2);
    }

    // services module_input: the filter drops api-filtered; cts_user_defined_meta reaches terraform.tfvars.
    for (const task of ["mi_services_regexp", "mi_services_names", "mi_multiple", "mi_multiple_cli", "consul_kv_mi_services"]) {
      const api = task === "consul_kv_mi_services" ? "k-api" : "api";
      expect(resource(task, api), `${task}\n${readFile(cts.taskPath(task, "terraform.tfvars"))}`).toBeDefined();
      expect(resource(task, "api-filtered"), task).toBeUndefined();
      const tfvars = readFile(cts.taskPath(task, "terraform.tfvars"))!;
      // CTS's validateVariable: the services variable of terraform.tfvars holds the meta.
      expect(/^services = \{\n[^]*?^\}$/m.exec(tfvars)?.[0], `${task}\n${tfvars}`).toContain("meta_key = \"meta_value\"");
    }
    // consul-kv module_input: the key, and its children only with recurse.
    for (const task of ["mi_consul_kv_recurse_true", "mi_consul_kv_recurse_false", "mi_multiple", "mi_multiple_cli"]) {
      expect(resource(task, "key"), task).toBe("value");
      expect(resource(task, "key/recurse"), task).toBe(task === "mi_consul_kv_recurse_true" ? "value-recurse" : undefined);
    }
    for (const task of ["services_regex_mi_consul_kv", "services_names_mi_consul_kv"]) {
      expect([resource(task, "s-key"), resource(task, "s-key/recurse"), resource(task, "s-api")], task)
        .toEqual(["value", "value-recurse", "10.0.0.5"]);
    }
  }, 120_000);

  // TestModuleInput_Services_InvalidQueries and TestModuleInput_ConsulKV_InvalidQueries (the -once half),
  // with CTS's configs and messages (the consul-kv ones are the Go client's wording). In the services
  // cases the catalog-services condition passes catalog_services, which consul_kv_file does not
  // declare: as in CTS, Consul's refusal is the error reported, not the module.
  const services = `condition "catalog-services" {\n    regexp = "api"\n  }\n  module_input "services" {\n    names = ["web", "api"]`;
  const kv = `condition "services" {\n    names = ["web", "api"]\n  }\n  module_input "consul-kv" {\n    path = "foo"`;
  const invalid = [
    { name: "services datacenter", block: services, extra: `datacenter = "foo"`, expect: "No path to datacenter" },
    { name: "services namespace", block: services, extra: `namespace = "foo"`, expect: "Invalid query parameter" },
    { name: "services filter", block: services, extra: `filter = "\\"foo\\" in Service.Bar"`, expect: "Selector" },
    { name: "consul-kv datacenter", block: kv, extra: `datacenter = "foo"`, expect: "Unexpected response code: 500" },
    { name: "consul-kv namespace", block: kv, extra: `namespace = "foo"`, expect: "Unexpected response code: 400" },
  ];
  const invalidTask = (testCase: (typeof invalid)[number]) => `task {
  name   = "module_input_invalid"
  module = "./test_modules/consul_kv_file"
  ${testCase.block}
    ${testCase.extra}
  }
}
`;
  for (const testCase of invalid) {
    it(`InvalidQueries ${testCase.name}: start -once fails with "${testCase.expect}"`, async () => {
      const result = await runOnce(consul, "cts-mi-invalid", invalidTask(testCase));
      expect(result.code, result.stdout + result.stderr).not.toBe(0);
      expect(result.stdout + result.stderr).toContain(testCase.expect);
    }, 60_000);

    it(`InvalidQueries ${testCase.name}_create_cli: task create fails with "${testCase.expect}"`, async () => {
      const result = await cts.createTask(invalidTask(testCase));
      expect(result.code, result.stdout + result.stderr).not.toBe(0);
      expect((result.stdout + result.stderr).replace(/\r?\n/g, " ")).toContain(testCase.expect);
      expect(await cts.statusCode("module_input_invalid")).toBe(404);
    }, 60_000);
  }

  it("InvalidQueries _create_cli: after the refused creates, the daemon still runs its tasks", async () => {
    expect((await fetch(`${cts.url}/v1/status`)).ok).toBe(true);
    const since = Date.now();
    await putKv(consul, "k-key", "after the refused creates");
    const event = await cts.waitForEvent("consul_kv_mi_services", since);
    expect(event.success).toBe(true);
  }, 60_000);
});
