import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { isConfigError } from "../../../core/config/config-error.ts";
import { normalizeTask, readTaskFile, taskToApiBody, type TaskDefaults } from "../../../core/config/normalize-task.ts";

const defaults: TaskDefaults = { working_dir: "sync-tasks", buffer_period: { enabled: true, min: 5_000, max: 20_000 }, driver: "terraform" };
const dir = mkdtempSync(join(tmpdir(), "cts-task-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("normalizeTask from the API body (CTS spelling)", () => {
  test("underscored condition/module_input types map to config labels", async () => {
    const task = await normalizeTask({
      name: "api-task", module: "./m", providers: ["local"],
      condition: { catalog_services: { regexp: "^web", node_meta: { rack: "a" } } },
      module_input: { consul_kv: { path: "cfg", recurse: true }, services: { names: ["db"], cts_user_defined_meta: { a: null, b: "x" } } },
      buffer_period: { min: "1s", max: "3s" },
    }, { file: "", defaults, from: "api" });
    // Bodies as written (the owners' defaults are the kernel's: test/core/kernel/complete-task.test.ts).
    expect(task.condition).toEqual({ type: "catalog-services", regexp: "^web", node_meta: { rack: "a" } });
    expect(task.module_input).toEqual([
      { type: "consul-kv", path: "cfg", recurse: true },
      { type: "services", names: ["db"], cts_user_defined_meta: { b: "x" } },
    ]);
    expect(task.buffer_period).toEqual({ enabled: true, min: 1_000, max: 3_000 });
    expect(task.buffer_period_configured).toBe(true);
    expect(task.working_dir).toBe("sync-tasks/api-task");
    expect(Object.isFrozen(task)).toBe(true);
  });

  test("API quirk: non-empty names wins over regexp for a services condition", async () => {
    const task = await normalizeTask(
      { name: "t", module: "./m", condition: { services: { names: ["a"], regexp: "b" } } },
      { file: "", defaults, from: "api" },
    );
    expect(task.condition).toMatchObject({ type: "services", names: ["a"] });
    expect("regexp" in task.condition).toBe(false);
  });

  test("every problem is reported under task.*", async () => {
    try {
      await normalizeTask({ name: "a/b", module: "./m", condition: { consul_kv: { recurse: "yes" } }, extra: 1 },
        { file: "", defaults, from: "api" });
      throw new Error("expected a ConfigError");
    } catch (error) {
      if (!isConfigError(error)) throw error;
      expect(error.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
        "task.extra: unknown field \"extra\" (expected one of: buffer_period, condition, description, enabled, module, " +
          "module_input, name, providers, services, source, source_input, terraform_cloud_workspace, terraform_version, " +
          "variable_files, variables, version, working_dir)",
      ]);
      // The condition body's problems are its owner's: the kernel reports them (test/core/kernel/block-options.test.ts).
    }
  });

  test("cross-field rules run too (name safety)", async () => {
    await expect(normalizeTask({ name: "../x", module: "./m", condition: { schedule: { cron: "@daily" } } },
      { file: "", defaults, from: "api" })).rejects.toThrow(`task.name: task name "../x" is not valid`);
  });
});

describe("task files (task create -task-file)", () => {
  test("an HCL task file with variable_files, sent as the API body and normalised back", async () => {
    writeFileSync(join(dir, "v.tfvars"), `size = 3\n`);
    writeFileSync(join(dir, "task.hcl"), `task {\n  name = "from-file"\n  module = "./m"\n  variable_files = ["v.tfvars"]\n` +
      `  condition "consul-kv" {\n    path = "x"\n  }\n  module_input "services" {\n    regexp = "^db"\n  }\n}\n`);
    const raw = await readTaskFile("task.hcl", dir);
    expect(raw.variables).toEqual({ size: "3" });
    const body = taskToApiBody(raw);
    expect(body).toEqual({
      name: "from-file", module: "./m", variables: { size: "3" },
      condition: { consul_kv: { path: "x" } }, module_input: { services: { regexp: "^db" } },
    });
    const viaApi = await normalizeTask(body, { file: "", defaults, from: "api" });
    const direct = await normalizeTask(raw, { file: "task.hcl", defaults });
    expect(viaApi).toEqual({ ...direct, variable_files: [] });
  });

  test("a task file must hold exactly one task", async () => {
    writeFileSync(join(dir, "two.json"), JSON.stringify({ task: [{ name: "a" }, { name: "b" }] }));
    await expect(readTaskFile("two.json", dir)).rejects.toThrow("two.json: task: the file must contain exactly one task block, found 2");
  });
});
