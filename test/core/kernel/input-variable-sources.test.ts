/**
 * CTS's rule that each input variable of a task has one source (config/task.go: a condition and a
 * module_input may not both provide one variable). The variable is the owner's word (`publishes`),
 * so a third-party condition that publishes `consul_kv` collides with `module_input "consul-kv"`,
 * in a config file and in a task built for the API alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../../core/config/load-config.ts";
import { createTaskBuilder } from "../../../core/config/task-builder.ts";
import { BlockOptions } from "../../../core/kernel/block-options.ts";
import { createPluginAjv } from "../../../core/kernel/plugin-ajv.ts";
import { NamedRegistry } from "../../../core/kernel/registries/named-registry.ts";
import { checkTaskBlocks, configBlockIssues, type BlockRegistries } from "../../../core/kernel/task-blocks.ts";
import type { ConditionFactory, DriverFactory, InputSource, ModuleInputFactory } from "../../../core/plugin-api/mod.ts";
import { consulKvModuleInputFactory } from "../../../plugins/consul-inputs/mod.ts";

const dir = mkdtempSync(path.join(tmpdir(), "cts-input-sources-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kvFlag: ConditionFactory = {
  name: "kv-flag",
  publishes: "consul_kv",
  optionsSchema: { type: "object", additionalProperties: false, properties: { key: { type: "string" } } },
  create: () => ({ start: async () => {}, stop: () => {} }) as unknown as InputSource,
};

function registries(): BlockRegistries {
  const drivers = new NamedRegistry<DriverFactory>("driver");
  drivers.register({ name: "terraform", create: () => { throw new Error("unused"); } });
  const conditions = new NamedRegistry<ConditionFactory>("condition");
  conditions.register(kvFlag);
  const moduleInputs = new NamedRegistry<ModuleInputFactory>("module input");
  moduleInputs.register(consulKvModuleInputFactory);
  return { drivers, conditions, moduleInputs };
}

const TASK = `task {
  name   = "t"
  module = "./m"
  condition "kv-flag" {
    key = "a"
  }
  module_input "consul-kv" {
    path = "b"
  }
}
`;

describe("a third-party condition publishing a built-in variable", () => {
  test("collides with a module_input of that variable in a config file (file and path named)", async () => {
    writeFileSync(path.join(dir, "cts.hcl"), TASK);
    const { config, fileOf } = await loadConfig({ paths: [{ kind: "file", path: "cts.hcl" }], env: {}, cwd: dir, hostName: "h" });
    expect(configBlockIssues(config, fileOf, registries(), new BlockOptions(createPluginAjv()))).toEqual([{
      file: "cts.hcl", path: "task[0].module_input[0].consul-kv",
      message: `"consul_kv" is already provided by condition.kv-flag; each input may have one source`,
    }]);
    // The owner's word decides: publishing another variable, the same blocks do not collide.
    const owners = registries();
    const conditions = new NamedRegistry<ConditionFactory>("condition");
    conditions.register({ ...kvFlag, publishes: "flags" });
    expect(configBlockIssues(config, fileOf, { ...owners, conditions }, new BlockOptions(createPluginAjv()))).toEqual([]);
  });

  test("and in a task built for the API", async () => {
    writeFileSync(path.join(dir, "cts.hcl"), `driver "terraform" {}\n`);
    const { config } = await loadConfig({ paths: [{ kind: "file", path: "cts.hcl" }], env: {}, cwd: dir, hostName: "h" });
    const owners = registries();
    const blocks = new BlockOptions(createPluginAjv());
    const builder = createTaskBuilder(config, (task, at) => checkTaskBlocks(task, at, () => undefined, owners, blocks));
    expect(() => builder.build({
      name: "t", module: "./m", condition: [{ "kv-flag": { key: "a" } }], module_input: [{ "consul-kv": { path: "b" } }],
    })).toThrow(`task.module_input[0].consul-kv: "consul_kv" is already provided by condition.kv-flag; each input may have one source`);
  });
});
