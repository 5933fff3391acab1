/**
 * Core keeps condition/module_input bodies as written; once every plugin is initialised the kernel
 * completes each configured task by its blocks' owners (deprecated names renamed, weak decoding,
 * defaults), so the engine, drivers and the API read the fields CTS shows for its conditions
 * (CTS api/representation: every field of a built-in condition, defaults included).
 */
import { afterAll, describe, expect, test } from "vitest";
import { createKernel } from "../../../core/kernel/kernel.ts";
import {
  conditionRegistryToken, configToken, definePlugin, taskBuilderToken, type CtsConfig,
} from "../../../core/plugin-api/mod.ts";
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

/** A third-party condition that, like schedule, never buffers: the rule follows the flag, not the name. */
const tickPlugin = definePlugin({
  id: "condition-tick",
  kind: "condition",
  deps: { conditions: conditionRegistryToken },
  init({ conditions }) {
    conditions.register({ name: "tick", unbuffered: true, create: () => ({ start: async () => {}, stop: () => {} }) });
  },
});

async function initialised(files: Record<string, string>) {
  const loaded = await loadFiles(files);
  const kernel = await createKernel({
    config: loaded.config, runOptions: { mode: "validate", inspectTasks: [], resetStorage: false }, logSink: recordingLogSink(),
    plugins: [flagPlugin, tickPlugin],
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

  // CTS: a scheduled task's buffer period is disabled whatever the task or global block says, and a
  // task block that enables one is ignored with a warning (config: "scheduled tasks never buffer").
  test("a condition that never buffers disables the task's buffer period, and says so when one was enabled", async () => {
    const task = (name: string, condition: string, buffer: string) =>
      `task {\n  name = "${name}"\n  module = "./m"\n${buffer}  condition ${condition}\n}\n`;
    const { loaded, kernel } = await initialised({
      "a.hcl": `buffer_period {\n  min = "3s"\n}\n` +
        task("s", `"schedule" {\n    cron = "*/5 * * * *"\n  }`, `  buffer_period {\n    min = "9s"\n  }\n`) +
        task("quiet", `"schedule" {\n    cron = "*/5 * * * *"\n  }`, "") +
        task("t", `"tick" {}`, `  buffer_period {\n    enabled = true\n  }\n`) +
        task("w", `"services" {\n    names = ["web"]\n  }`, `  buffer_period {\n    min = "9s"\n  }\n`),
    });
    try {
      const disabled = { enabled: false, min: 0, max: 0 };
      expect(kernel.resolve(configToken).tasks.map((t) => [t.name, t.buffer_period, t.buffer_period_configured])).toEqual([
        ["s", disabled, true], ["quiet", disabled, true], ["t", disabled, true],
        ["w", { enabled: true, min: 9_000, max: 36_000 }, true],
      ]);
      expect(kernel.blockWarnings(loaded.config, loaded.fileOf)).toEqual([
        { file: "a.hcl", path: "task[0].buffer_period", message: "ignored: scheduled tasks never buffer" },
        { file: "a.hcl", path: "task[2].buffer_period", message: "ignored: scheduled tasks never buffer" },
      ]);
      // Over the API too.
      const built = kernel.resolve(taskBuilderToken).build({
        name: "api", module: "./m", buffer_period: { min: "9s" }, condition: [{ schedule: { cron: "*/5 * * * *" } }],
      });
      expect([built.buffer_period, built.buffer_period_configured]).toEqual([disabled, true]);
    } finally {
      await kernel.stop();
    }
  });
});
