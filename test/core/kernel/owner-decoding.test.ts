/**
 * A third-party condition or module_input block is decoded by its OWNER's schema, as CTS decodes
 * every condition/module_input block (mapstructure WeaklyTypedInput plus the slice hook, in HCL and
 * JSON alike): HCL's block syntax for a map, `"true"` for a boolean, `"3"` for an integer, one value
 * for a list. Core's config schema knows none of these fields; the kernel learns them from the plugin.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../../core/config/load-config.ts";
import { BlockOptions } from "../../../core/kernel/block-options.ts";
import { createPluginAjv } from "../../../core/kernel/plugin-ajv.ts";
import { NamedRegistry } from "../../../core/kernel/registries/named-registry.ts";
import { configBlockIssues, type BlockRegistries } from "../../../core/kernel/task-blocks.ts";
import { withValidatedInput } from "../../../core/kernel/validated-factories.ts";
import type { ConditionFactory, InputSource, JsonSchema, ModuleInputFactory } from "../../../core/plugin-api/mod.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const toggleSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["key"],
  properties: {
    key: { type: "string" },
    inverted: { type: "boolean", default: false },
    retries: { type: "integer" },
    zones: { type: "array", items: { type: "string" } },
    labels: { type: "object", additionalProperties: { type: "string" }, default: {} },
  },
};

/** Records what the kernel hands `create`. */
function recording<T extends ConditionFactory | ModuleInputFactory>(name: string, received: unknown[]): T {
  const source: InputSource = { start: async () => {}, stop: () => {} } as unknown as InputSource;
  return { name, optionsSchema: toggleSchema, create: (config: unknown) => (received.push(config), source) } as unknown as T;
}

async function load(name: string, text: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "cts-owner-decode-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, name), text);
  return loadConfig({ paths: [{ kind: "file", path: name }], env: {}, cwd: dir, hostName: "h" });
}

function setUp() {
  const received: unknown[] = [];
  const blocks = new BlockOptions(createPluginAjv());
  const drivers = new NamedRegistry<never>("driver");
  drivers.register({ name: "terraform", create: () => { throw new Error("unused"); } } as never);
  const conditions = new NamedRegistry<ConditionFactory>("condition", (f) => withValidatedInput(f, "condition", blocks));
  const moduleInputs = new NamedRegistry<ModuleInputFactory>("module input", (f) => withValidatedInput(f, "module_input", blocks));
  conditions.register(recording("toggle", received));
  moduleInputs.register(recording("toggle", received));
  const registries = { drivers, conditions, moduleInputs } as unknown as BlockRegistries;
  return { received, blocks, registries, conditions, moduleInputs };
}

const HCL = `
task {
  name   = "t"
  module = "./m"
  condition "toggle" {
    key      = "k"
    inverted = "true"
    retries  = "0x10"
    zones    = "eu"
    labels {
      team = "a"
    }
    labels {
      tier = "b"
    }
  }
  module_input "toggle" {
    key = ["m"]
    labels {
      team = "c"
    }
  }
}
`;

describe("a third-party block is weakly decoded by its owner's schema", () => {
  test("HCL: block-syntax maps merge, strings become booleans and integers, one value a list; create gets the decoded block", async () => {
    const { config, fileOf } = await load("cts.hcl", HCL);
    const { received, blocks, registries, conditions, moduleInputs } = setUp();
    expect(configBlockIssues(config, fileOf, registries, blocks)).toEqual([]);
    const task = config.tasks[0]!;
    conditions.get("toggle")!.create(task.condition as Record<string, unknown>, "t", task);
    moduleInputs.get("toggle")!.create(task.module_input[0] as unknown as Record<string, unknown>, "t", task);
    expect(received).toEqual([
      { type: "toggle", key: "k", inverted: true, retries: 16, zones: ["eu"], labels: { team: "a", tier: "b" } },
      { type: "toggle", key: "m", inverted: false, labels: { team: "c" } },
    ]);
  });

  test("JSON: the slice hook applies inside condition blocks (CTS decodes them with it in any format)", async () => {
    const { config, fileOf } = await load("cts.json", JSON.stringify({
      task: [{ name: "t", module: "./m", condition: { toggle: { key: ["k"], inverted: 1, labels: [{ team: "a" }] } } }],
    }));
    const { received, blocks, registries, conditions } = setUp();
    expect(configBlockIssues(config, fileOf, registries, blocks)).toEqual([]);
    conditions.get("toggle")!.create(config.tasks[0]!.condition as Record<string, unknown>, "t", config.tasks[0]);
    expect(received).toEqual([{ type: "toggle", key: "k", inverted: true, labels: { team: "a" } }]);
  });

  test("what WeaklyTypedInput refuses is still refused, with file and field path", async () => {
    const { config, fileOf } = await load("cts.hcl", HCL.replace(`"true"`, `"yes"`).replace(`"0x10"`, `"ten"`));
    const { blocks, registries } = setUp();
    expect(configBlockIssues(config, fileOf, registries, blocks)).toEqual([
      { file: "cts.hcl", path: "task[0].condition.toggle.inverted", message: `must be a boolean (true or false), got "yes"` },
      { file: "cts.hcl", path: "task[0].condition.toggle.retries", message: `must be a whole number, got "ten"` },
    ]);
  });
});
