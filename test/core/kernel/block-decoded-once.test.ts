/**
 * A condition or module_input block is checked against its owner's schema once between config load
 * and the task's first run: the block check of the config (as the CLI runs it), the kernel's
 * completion of the task, then everything the engine does before it starts the sources (the
 * driver's input specs and templates, the sources' create) reuse that one decoded, frozen block.
 * The `driver {}` body likewise: the kernel's completion, the config check, `verify` and `create`.
 */
import { afterAll, describe, expect, test, vi } from "vitest";
import { createKernel } from "../../../core/kernel/kernel.ts";
import { Ajv, type AnySchema, type ValidateFunction } from "ajv";
import {
  conditionRegistryToken, configToken, definePlugin, driverRegistryToken, moduleInputRegistryToken, type ConditionFactory, type Driver,
  type DriverContext, type DriverFactory, type OptionsOf, type PluginDefinition, type TaskConfig,
} from "../../../core/plugin-api/mod.ts";
import { taskInputSpecs } from "../../../plugins/task-engine/src/task-input-specs.ts";
import { taskInputTemplates } from "../../../plugins/task-engine/src/task-input-templates.ts";
import { loadFiles, removeConfigDirs } from "../config/config-dir.ts";
import { recordingLogSink } from "./kernel-fixtures.ts";
import flagPlugin, { flagConditionSchema } from "../../fixtures/plugins/condition-flag/mod.ts";
import { consulKvModuleInputSchema, servicesConditionSchema } from "../../../plugins/consul-inputs/src/input-options.ts";

/** Counts the validations of each schema the kernel's ajv compiles from now on (the real validator runs). */
function countValidations() {
  const counts = new Map<unknown, number>();
  const compile = Ajv.prototype.compile;
  const spy = vi.spyOn(Ajv.prototype, "compile").mockImplementation(function (this: Ajv, schema: AnySchema) {
    const validate = compile.call(this, schema) as ValidateFunction;
    const counted = ((data: unknown) => {
      counts.set(schema, (counts.get(schema) ?? 0) + 1);
      const ok = validate(data);
      counted.errors = validate.errors;
      return ok;
    }) as ValidateFunction;
    return counted;
  });
  return { of: (schema: unknown) => counts.get(schema) ?? 0, restore: () => spy.mockRestore() };
}

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
  name   = "fl"
  module = "./m"
  condition "flag" {
    key = "x"
  }
}
`;

/** A kernel initialised on `text` (in file `name`) with `plugins`, its config checked as the CLI checks it at load. */
async function initialised(text: string, plugins: readonly PluginDefinition[], name = "a.hcl") {
  const loaded = await loadFiles({ [name]: text });
  const kernel = await createKernel({
    config: loaded.config, fileOf: loaded.fileOf, runOptions: { mode: "validate", inspectTasks: [], resetStorage: false },
    logSink: recordingLogSink(), plugins,
  });
  await kernel.init();
  expect(kernel.blockIssues(loaded.config, loaded.fileOf)).toEqual([]);
  return kernel;
}

describe("a block is decoded once between config load and the first run", () => {
  test("one schema check per condition and module_input block, with built-in and third-party owners", async () => {
    const validations = countValidations();
    const kernel = await initialised(HCL, [flagPlugin]);
    try {
      const conditions = kernel.resolve(conditionRegistryToken);
      const moduleInputs = kernel.resolve(moduleInputRegistryToken);
      // What the engine does with a task before its first run.
      const sources = kernel.resolve(configToken).tasks.map((task: TaskConfig) => {
        taskInputSpecs(task, conditions, moduleInputs);
        taskInputTemplates(task, conditions, moduleInputs);
        return [
          conditions.get(task.condition.type)!.create(task.condition, task.name, task),
          ...task.module_input.map((input) => moduleInputs.get(input.type)!.create(input as never, task.name, task)),
        ];
      });
      expect(sources.flat().map((source) => source.variable)).toEqual(["services", "consul_kv", undefined]);
      expect({
        services: validations.of(servicesConditionSchema), "consul-kv": validations.of(consulKvModuleInputSchema), flag: validations.of(flagConditionSchema),
      }).toEqual({ services: 1, "consul-kv": 1, flag: 1 });
    } finally {
      validations.restore();
      await kernel.stop();
    }
  });

  test("a typed third-party condition gets one frozen options object, defaults filled in, in validate, publishesFor, template and create", async () => {
    const schema = {
      type: "object", additionalProperties: false, required: ["key"],
      properties: { key: { type: "string" }, colour: { type: "string", enum: ["blue", "red"], default: "blue" } },
    } as const;
    const seen: { hook: string; options: OptionsOf<typeof schema> }[] = [];
    const lampFactory: ConditionFactory<OptionsOf<typeof schema>> = {
      name: "lamp",
      optionsSchema: schema,
      validate: (options) => (seen.push({ hook: "validate", options }), []),
      publishesFor: (options) => (seen.push({ hook: "publishesFor", options }), `lamp_${options.colour}`),
      template: (options) => (seen.push({ hook: "template", options }), `lamp = "${options.key}"`),
      create: (options) => (seen.push({ hook: "create", options }), { variable: `lamp_${options.colour}`, start: async () => {}, stop: () => {} }),
    };
    const lampPlugin = definePlugin({
      id: "condition-lamp", kind: "condition", deps: { conditions: conditionRegistryToken },
      init({ conditions }) {
        conditions.register(lampFactory);
      },
    });
    const kernel = await initialised(`task {\n  name = "l"\n  module = "./m"\n  condition "lamp" {\n    key = "k"\n  }\n}\n`, [lampPlugin]);
    try {
      const conditions = kernel.resolve(conditionRegistryToken);
      const task = kernel.resolve(configToken).tasks[0]!;
      const specs = taskInputSpecs(task, conditions, kernel.resolve(moduleInputRegistryToken));
      taskInputTemplates(task, conditions, kernel.resolve(moduleInputRegistryToken));
      conditions.get("lamp")!.create(task.condition, task.name, task);
      expect(specs.map((spec) => spec.variable)).toEqual(["lamp_blue"]);
      expect(seen.map((entry) => entry.hook)).toEqual(["validate", "publishesFor", "template", "publishesFor", "create"]);
      expect(seen[0]!.options).toEqual({ type: "lamp", key: "k", colour: "blue" });
      expect(Object.isFrozen(seen[0]!.options)).toBe(true);
      // The block the kernel completed is the very object every hook received.
      for (const entry of seen) expect(entry.options).toBe(task.condition);
    } finally {
      await kernel.stop();
    }
  });

  describe("the driver body: one decoding and one schema check for the completion, the config check, verify and create", () => {
    const fleetSchema = {
      type: "object", additionalProperties: false,
      properties: {
        settings: {
          type: "object", additionalProperties: false,
          properties: { retries: { type: "integer" }, dry_run: { type: "boolean", default: false } },
        },
        zones: { type: "array", items: { type: "string" } },
      },
    } as const;
    type FleetOptions = OptionsOf<typeof fleetSchema>;
    const received: FleetOptions[] = [];
    const fleet: DriverFactory<FleetOptions> = {
      name: "fleet",
      optionsSchema: fleetSchema,
      validate: (options) => (received.push(options), []),
      verify: async (driver) => (received.push(driver.options), "fleet 1.0"),
      create: async (_task, ctx) => (received.push(ctx.driver.options), {} as Driver),
    };
    const fleetPlugin = definePlugin({
      id: "driver-fleet", kind: "driver", deps: { drivers: driverRegistryToken },
      init({ drivers }) {
        drivers.register(fleet);
      },
    });
    const TASK = { name: "f", module: "./m", condition: { services: { names: ["web"] } } };

    test.each([
      ["a.hcl", `driver "fleet" {\n  settings {\n    retries = "3"\n  }\n  zones = "a"\n}\ntask {\n  name = "f"\n  module = "./m"\n  condition "services" {\n    names = ["web"]\n  }\n}\n`],
      ["a.json", JSON.stringify({ driver: { fleet: { settings: [{ retries: 3 }], zones: ["a"] } }, task: [TASK] })],
    ])("%s", async (name, text) => {
      received.length = 0;
      const validations = countValidations();
      const kernel = await initialised(text, [fleetPlugin], name);
      try {
        const driver = kernel.resolve(configToken).driver as DriverContext<FleetOptions>["driver"];
        const factory = kernel.resolve(driverRegistryToken).get("fleet")!;
        await factory.verify!(driver, new AbortController().signal);
        await factory.create(kernel.resolve(configToken).tasks[0]!, { driver } as DriverContext);
        expect(validations.of(fleetSchema)).toBe(1);
        expect(driver.options).toEqual({ settings: { retries: 3, dry_run: false }, zones: ["a"] });
        expect(Object.isFrozen(driver.options)).toBe(true);
        // validate (the config check), verify and create all got the body the kernel completed.
        expect(received.length).toBe(3);
        for (const options of received) expect(options).toBe(driver.options);
      } finally {
        validations.restore();
        await kernel.stop();
      }
    });
  });
});
