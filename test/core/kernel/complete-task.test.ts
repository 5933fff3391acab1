/**
 * Core keeps condition/module_input bodies as written; once every plugin is initialised the kernel
 * completes each configured task by its blocks' owners (deprecated names renamed, weak decoding,
 * defaults), so the engine, drivers and the API read the fields CTS shows for its conditions
 * (CTS api/representation: every field of a built-in condition, defaults included).
 */
import { afterAll, describe, expect, test } from "vitest";
import { createKernel } from "../../../core/kernel/kernel.ts";
import { configToken, taskBuilderToken, type CtsConfig } from "../../../core/plugin-api/mod.ts";
import { loadFiles, removeConfigDirs } from "../config/config-dir.ts";
import { recordingLogSink } from "./kernel-fixtures.ts";
import flagPlugin from "../../fixtures/plugins/condition-flag/mod.ts";

afterAll(removeConfigDirs);

const HCL = `
task {
  name   = "svc"
  module = "./m"
  condition "services" {
    names = ["web"]
  }
  module_input "consul-kv" {
    path = "k"
  }
}
task {
  name   = "cat"
  module = "./m"
  condition "catalog-services" {
    regexp              = "^web"
    source_includes_var = false
  }
}
task {
  name   = "fl"
  module = "./m"
  condition "flag" {
    key = "x"
  }
}
task {
  name   = "kv"
  module = "./m"
  condition "consul-kv" {
    path                = "k"
    source_includes_var = false
    use_as_module_input = true
  }
  module_input "services" {
    regexp = "^db"
  }
}
`;

async function initialised(files: Record<string, string>) {
  const loaded = await loadFiles(files);
  const kernel = await createKernel({
    config: loaded.config, runOptions: { mode: "validate", inspectTasks: [], resetStorage: false }, logSink: recordingLogSink(),
    plugins: [flagPlugin],
  });
  await kernel.init();
  return { loaded, kernel };
}

describe("the kernel completes each task by its blocks' owners", () => {
  test("configured tasks: the owners' defaults; source_includes_var renamed (a set use_as_module_input wins) with CTS's warning", async () => {
    const { loaded, kernel } = await initialised({ "a.hcl": HCL });
    try {
      const config: CtsConfig = kernel.resolve(configToken);
      expect(config.tasks.map((task) => [task.condition, task.module_input])).toEqual([
        [
          { type: "services", names: ["web"], datacenter: "", namespace: "", filter: "", cts_user_defined_meta: {}, use_as_module_input: true },
          [{ type: "consul-kv", path: "k", datacenter: "", namespace: "", recurse: false }],
        ],
        [{ type: "catalog-services", regexp: "^web", use_as_module_input: false, datacenter: "", namespace: "", node_meta: {} }, []],
        [{ type: "flag", key: "x", colour: "blue" }, []],
        [
          { type: "consul-kv", path: "k", use_as_module_input: true, datacenter: "", namespace: "", recurse: false },
          [{ type: "services", regexp: "^db", datacenter: "", namespace: "", filter: "", cts_user_defined_meta: {} }],
        ],
      ]);
      expect(Object.isFrozen(config) && Object.isFrozen(config.tasks[0]!.condition)).toBe(true);
      expect(kernel.blockWarnings(loaded.config, loaded.fileOf)).toEqual([
        { file: "a.hcl", path: "task[1].condition", message: "source_includes_var is deprecated; use use_as_module_input" },
        { file: "a.hcl", path: "task[3].condition", message: "source_includes_var is deprecated; use use_as_module_input" },
      ]);
    } finally {
      await kernel.stop();
    }
  });

  test("a task built for the API is completed the same way", async () => {
    const { kernel } = await initialised({ "a.hcl": `driver "terraform" {}\n` });
    try {
      const task = kernel.resolve(taskBuilderToken).build({
        name: "t", module: "./m", condition: [{ "consul-kv": { path: "k", source_includes_var: false } }],
      });
      expect(task.condition).toEqual({ type: "consul-kv", path: "k", use_as_module_input: false, datacenter: "", namespace: "", recurse: false });
      // A third-party owner's default too, as for a task in a config file.
      const flag = kernel.resolve(taskBuilderToken).build({ name: "f", module: "./m", condition: [{ flag: { key: "x" } }] });
      expect(flag.condition).toEqual({ type: "flag", key: "x", colour: "blue" });
    } finally {
      await kernel.stop();
    }
  });
});
