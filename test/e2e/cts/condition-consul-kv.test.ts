/**
 * @module Port of CTS's e2e/condition_consul_kv_test.go against the real daemon (node dist/main.js),
 * the real terraform and the embedded Consul. CTS starts one daemon per sub-test; here the variants
 * are tasks of one daemon, each on its own key path, so every Consul write is also a "must not
 * trigger" check for the tasks it does not concern. "No event" is checked the way CTS's counts do
 * it, without a fixed sleep: the task's next expected run must be exactly one event more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import {
  type CtsDaemon, deleteKv, deregisterService, putKv, readFile, registerService, runOnce, startCtsDaemon,
} from "./kv-schedule-support.ts";

interface KvTask {
  readonly name: string;
  readonly path: string;
  readonly recurse: boolean;
  readonly useAsModuleInput: boolean;
}

/** CTS's newKVTaskConfig; its registry module lornasong/cts_kv_file/local is our consul_kv_file stand-in. */
function kvTaskHcl(task: KvTask): string {
  return `task {
  name   = "${task.name}"
  module = "${task.useAsModuleInput ? "./test_modules/consul_kv_file" : "./test_modules/local_instances_file"}"
  condition "consul-kv" {
    path                = "${task.path}"
    use_as_module_input = ${task.useAsModuleInput}
    recurse             = ${task.recurse}
  }
  module_input "services" {
    names = ["web", "api"]
  }
}
`;
}

const newKey = (variant: string, recurse: boolean, useAsModuleInput: boolean): KvTask =>
  ({ name: `consul_kv_condition_new_${variant}`, path: `new-${variant}/test-key/path`, recurse, useAsModuleInput });
const existingKey = (variant: string, recurse: boolean): KvTask =>
  ({ name: `consul_kv_condition_existing_${variant}`, path: `existing-${variant}/test-key/path`, recurse, useAsModuleInput: true });

const NEW_SINGLE = newKey("single_key_use_as_module_input_true", false, true);
const NEW_RECURSE = newKey("recurse_use_as_module_input_true", true, true);
const NEW_RECURSE_NO_INPUT = newKey("recurse", true, false);
const EXISTING_SINGLE = existingKey("single_key_use_as_module_input_true", false);
const EXISTING_RECURSE = existingKey("recurse_use_as_module_input_true", true);
const ALL = [NEW_SINGLE, NEW_RECURSE, NEW_RECURSE_NO_INPUT, EXISTING_SINGLE, EXISTING_RECURSE];

/** CTS's TestConditionConsulKV_SuppressTriggers_SharedDependencies: a services task and a created kv task share "cache". */
const SHARED_INIT = "initial_task";
const SHARED_CREATED = "consul_kv_condition_cli_shared_dep_single_key";

describe("CTS e2e condition_consul_kv_test.go", () => {
  let consul: TestConsulDevServer;
  let cts: CtsDaemon;
  const count = async (task: KvTask | string) => (await cts.events(typeof task === "string" ? task : task.name)).length;
  const file = (task: KvTask | string, name: string) =>
    readFile(cts.taskPath(typeof task === "string" ? task : task.name, "resources", `${name}.txt`));

  /** Writes, waits for the next event of each task in `tasks`, and checks it is exactly one more. */
  async function expectOneRunEach(tasks: readonly KvTask[], before: Map<string, number>, write: () => Promise<void>): Promise<void> {
    const since = Date.now();
    await write();
    for (const task of tasks) {
      const event = await cts.waitForEvent(task.name, since);
      expect(event.success, cts.output().slice(-4000)).toBe(true);
      const now = await count(task);
      expect(now, `${task.name} ran other than once`).toBe(before.get(task.name)! + 1);
      before.set(task.name, now);
    }
  }

  beforeAll(async () => {
    consul = await startConsulDevServer();
    // CTS's newTestConsulServer registers api, web and db.
    await registerService(consul, { id: "api", name: "api", address: "1.2.3.4", port: 8080, tags: ["tag1"] });
    await registerService(consul, { id: "web", name: "web", address: "5.6.7.8", port: 8000, tags: ["tag2"] });
    await registerService(consul, { id: "db", name: "db", address: "10.10.10.10", port: 8000, tags: ["tag3", "tag4"] });
    for (const task of [EXISTING_SINGLE, EXISTING_RECURSE]) {
      await putKv(consul, task.path, "test-value");
      await putKv(consul, `${task.path}/test`, "child value");
    }
    cts = await startCtsDaemon(consul, "cts-kv", ALL.map(kvTaskHcl).join("\n") + `
task {
  name   = "${SHARED_INIT}"
  module = "./test_modules/local_instances_file"
  condition "services" {
    names               = ["cache"]
    use_as_module_input = true
  }
}
`);
  }, 120_000);

  afterAll(async () => {
    await cts?.stop();
    await consul?.stop();
  });

  it("NewKey/ExistingKey/SuppressTriggers: one event per change of the watched key, prefix only with recurse", async () => {
    const counts = new Map<string, number>();
    for (const task of ALL) {
      // CTS: exactly one event after the once phase.
      counts.set(task.name, await count(task));
      expect(counts.get(task.name), task.name).toBe(1);
    }
    // CTS TestConditionConsulKV_NewKey: with use_as_module_input, an absent key renders an empty consul_kv.
    for (const task of [NEW_SINGLE, NEW_RECURSE]) {
      expect(readFile(cts.taskPath(task.name, "terraform.tfvars"))).toContain("\n\nconsul_kv = {\n}\n");
    }
    // CTS TestConditionConsulKV_ExistingKey: the key is there at start; its child only with recurse.
    expect(file(EXISTING_SINGLE, EXISTING_SINGLE.path)).toBe("test-value");
    expect(file(EXISTING_SINGLE, `${EXISTING_SINGLE.path}/test`)).toBeUndefined();
    expect(file(EXISTING_RECURSE, EXISTING_RECURSE.path)).toBe("test-value");
    expect(file(EXISTING_RECURSE, `${EXISTING_RECURSE.path}/test`)).toBe("child value");
    // CTS TestConditionConsulKV_SuppressTriggers: the module_input's services are rendered (api, web; not db) ...
    expect([file(EXISTING_SINGLE, "api"), file(EXISTING_SINGLE, "web"), file(EXISTING_SINGLE, "db")])
      .toEqual(["1.2.3.4", "5.6.7.8", undefined]);
    // ... and deregistering web triggers no task (proved by the exact counts of the next step) nor rewrites files.
    await deregisterService(consul, "web");

    // NewKey: adding the watched key triggers each new-key task once; ExistingKey: so does updating it.
    await expectOneRunEach(ALL, counts, async () => {
      for (const task of [NEW_SINGLE, NEW_RECURSE, NEW_RECURSE_NO_INPUT]) await putKv(consul, task.path, "test-value");
      for (const task of [EXISTING_SINGLE, EXISTING_RECURSE]) await putKv(consul, task.path, "new-test-value");
    });
    for (const task of [NEW_SINGLE, NEW_RECURSE]) expect(file(task, task.path)).toBe("test-value");
    for (const task of [EXISTING_SINGLE, EXISTING_RECURSE]) expect(file(task, task.path)).toBe("new-test-value");
    // SuppressTriggers: the run a key change caused renders the latest services (web gone).
    expect(file(EXISTING_SINGLE, "web")).toBeUndefined();
    expect(readFile(cts.taskPath(NEW_RECURSE_NO_INPUT.name, "terraform.tfvars"))).not.toMatch(/^consul_kv = /m);

    // NewKey: an unrelated key triggers nothing (the exact counts of the next steps prove it) ...
    await putKv(consul, "not/related/path", "test");
    // ... and a key under the path triggers only the recurse tasks; ExistingKey: likewise a changed child.
    await expectOneRunEach([NEW_RECURSE, NEW_RECURSE_NO_INPUT, EXISTING_RECURSE], counts, async () => {
      for (const task of [NEW_SINGLE, NEW_RECURSE, NEW_RECURSE_NO_INPUT]) {
        await putKv(consul, `${task.path}/prefixed`, "prefixed-test-value");
      }
      for (const task of [EXISTING_SINGLE, EXISTING_RECURSE]) await putKv(consul, `${task.path}/test`, "new-child-value");
    });
    expect(file(NEW_RECURSE, `${NEW_RECURSE.path}/prefixed`)).toBe("prefixed-test-value");
    expect(file(EXISTING_RECURSE, `${EXISTING_RECURSE.path}/test`)).toBe("new-child-value");
    for (const task of ALL) expect(file(task, "not/related/path"), task.name).toBeUndefined();

    // ExistingKey: deleting the key triggers (and the single-key tasks had no run for the child/prefix).
    await expectOneRunEach(ALL, counts, async () => {
      for (const task of ALL) await deleteKv(consul, task.path);
    });
    expect(file(NEW_SINGLE, `${NEW_SINGLE.path}/prefixed`)).toBeUndefined();
    expect(file(EXISTING_SINGLE, `${EXISTING_SINGLE.path}/test`)).toBeUndefined();
    for (const task of [NEW_SINGLE, NEW_RECURSE, EXISTING_SINGLE, EXISTING_RECURSE]) {
      expect(file(task, task.path), task.name).toBeUndefined();
    }
    // Recurse: the children stay.
    expect(file(NEW_RECURSE, `${NEW_RECURSE.path}/prefixed`)).toBe("prefixed-test-value");
    expect(file(EXISTING_RECURSE, `${EXISTING_RECURSE.path}/test`)).toBe("new-child-value");

    // ExistingKey: adding the key back triggers again.
    await expectOneRunEach([EXISTING_SINGLE, EXISTING_RECURSE], counts, async () => {
      for (const task of [EXISTING_SINGLE, EXISTING_RECURSE]) await putKv(consul, task.path, "new-test-value-2");
    });
    for (const task of [EXISTING_SINGLE, EXISTING_RECURSE]) expect(file(task, task.path)).toBe("new-test-value-2");
  }, 150_000);

  it("SuppressTriggers_SharedDependencies: a created kv task does not run for a service it shares with another task", async () => {
    // CTS issue 704: the created task's module_input shares "cache" with initial_task's condition.
    const created = await cts.createTask(`task {
  name   = "${SHARED_CREATED}"
  module = "./test_modules/consul_kv_file"
  condition "consul-kv" {
    path                = "shared/test-key"
    recurse             = false
    use_as_module_input = true
  }
  module_input "services" {
    names = ["cache"]
  }
}
`);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    expect(created.stdout).toContain(`Task '${SHARED_CREATED}' created`);
    expect(await count(SHARED_CREATED)).toBe(1);
    const initBefore = await count(SHARED_INIT);

    const registered = Date.now();
    await registerService(consul, { id: "cache", name: "cache", address: "10.1.1.1" });
    await cts.waitForEvent(SHARED_INIT, registered);
    expect(await count(SHARED_INIT)).toBe(initBefore + 1);
    expect(readFile(cts.taskPath(SHARED_INIT, "resources", "cache.txt"))).toBe("10.1.1.1");

    const written = Date.now();
    await putKv(consul, "shared/test-key", "test-value");
    await cts.waitForEvent(SHARED_CREATED, written);
    // Exactly one more than at creation: the registration of cache did not run it.
    expect(await count(SHARED_CREATED)).toBe(2);
    expect(file(SHARED_CREATED, "shared/test-key")).toBe("test-value");
    expect(file(SHARED_CREATED, "cache")).toBe("10.1.1.1");
  }, 90_000);

  // CTS TestConditionConsulKV_InvalidQueries: Consul refuses the condition's query; CTS prints the Go
  // client's "Unexpected response code: <status>" (its only text for KV). Ours adds Consul's reason.
  // CTS's null_resource module declares no consul_kv: Consul's refusal is still the error reported.
  const invalid = [
    { name: "datacenter", field: `datacenter = "foo"`, expect: "Unexpected response code: 500" },
    { name: "namespace_with_oss_consul", field: `namespace = "foo"`, expect: "Unexpected response code: 400" },
  ];
  const invalidTask = (name: string, field: string) => `task {
  name   = "condition_consul_kv_invalid_${name}"
  module = "./test_modules/null_resource"
  module_input "services" {
    names = ["api", "web"]
  }
  condition "consul-kv" {
    path = "foo"
    ${field}
  }
}
`;
  for (const testCase of invalid) {
    it(`InvalidQueries ${testCase.name}: start -once fails with "${testCase.expect}"`, async () => {
      const result = await runOnce(consul, "cts-kv-invalid", invalidTask(testCase.name, testCase.field));
      expect(result.code, result.stdout + result.stderr).not.toBe(0);
      expect(result.stdout + result.stderr).toContain(testCase.expect);
    }, 60_000);

    it(`InvalidQueries ${testCase.name}_create_cli: task create fails with "${testCase.expect}", the daemon goes on`, async () => {
      const result = await cts.createTask(invalidTask(testCase.name, testCase.field));
      expect(result.code, result.stdout + result.stderr).not.toBe(0);
      expect((result.stdout + result.stderr).replaceAll("\n", " ")).toContain(testCase.expect);
      expect((await fetch(`${cts.url}/v1/status`)).ok).toBe(true);
      // The existing tasks are still monitored.
      const since = Date.now();
      await putKv(consul, NEW_SINGLE.path, `after-invalid-${testCase.name}`);
      await cts.waitForEvent(NEW_SINGLE.name, since);
      expect(file(NEW_SINGLE, NEW_SINGLE.path)).toBe(`after-invalid-${testCase.name}`);
    }, 60_000);
  }
});
