/**
 * @module Config checks that need the kernel's registries, run after plugins initialised: does a
 * plugin provide the configured driver, each task's condition and module inputs, and do their blocks
 * satisfy the factory's `optionsSchema`? Nothing runs before these pass.
 */
import { Ajv, type ValidateFunction } from "ajv";
import type {
  ConditionFactory, DriverFactory, JsonSchema, ModuleInputFactory,
} from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";
import { issuesFromAjv } from "./config-schemas.ts";
import type { LoadedConfig } from "./load-config.ts";
import { isGoDuration } from "../plugin-api/mod.ts";

export interface RegisteredNames {
  readonly drivers: readonly string[];
  readonly conditions: readonly string[];
  readonly moduleInputs: readonly string[];
}

export interface RegisteredFactories {
  readonly drivers: readonly DriverFactory[];
  readonly conditions: readonly ConditionFactory[];
  readonly moduleInputs: readonly ModuleInputFactory[];
}

type Loaded = Pick<LoadedConfig, "config" | "fileOf">;

/** CTS Enterprise drivers, named so users see why their config does not load here. */
const ENTERPRISE_ONLY: Readonly<Record<string, string>> = {
  "terraform-cloud": "the Terraform Cloud driver is part of CTS Enterprise; no plugin here provides it",
};

/** One issue per configured driver/condition/module_input name that no loaded plugin registered. */
export function checkRegisteredNames(loaded: Loaded, names: RegisteredNames): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const { config, fileOf } = loaded;
  const unknown = (path: string, kind: string, name: string, known: readonly string[]): void => {
    if (known.includes(name)) return;
    const list = known.length > 0 ? [...known].sort().join(", ") : "(none)";
    const hint = ENTERPRISE_ONLY[name] !== undefined && kind === "driver" ? ` (${ENTERPRISE_ONLY[name]})` : "";
    issues.push({ file: fileOf(path) ?? "", path, message: `unknown ${kind} "${name}": known ${kind}s are ${list}${hint}` });
  };
  unknown(`driver.${config.driver.name}`, "driver", config.driver.name, names.drivers);
  config.tasks.forEach((task, index) => {
    if (task.condition.type !== "") {
      unknown(`task[${index}].condition.${task.condition.type}`, "condition", task.condition.type, names.conditions);
    }
    task.module_input.forEach((input, inputIndex) => {
      unknown(`task[${index}].module_input[${inputIndex}].${input.type}`, "module_input", input.type, names.moduleInputs);
    });
  });
  return issues;
}

/**
 * `checkRegisteredNames` plus validation of the driver block body, each condition's fields (without
 * `type`, unless the schema declares it) and each module input's fields against the factory's schema.
 */
export function validateAgainstFactories(loaded: Loaded, factories: RegisteredFactories): ConfigIssue[] {
  const issues = checkRegisteredNames(loaded, {
    drivers: factories.drivers.map((factory) => factory.name),
    conditions: factories.conditions.map((factory) => factory.name),
    moduleInputs: factories.moduleInputs.map((factory) => factory.name),
  });
  const { config, fileOf } = loaded;
  const check = (schema: JsonSchema | undefined, value: Record<string, unknown>, path: string): void => {
    if (schema === undefined) return;
    const file = fileOf(path) ?? "";
    const validate = compiled(schema);
    if (typeof validate === "string") {
      issues.push({ file, path, message: `cannot check this block: the plugin's optionsSchema is invalid: ${validate}` });
      return;
    }
    if (!validate(fieldsFor(schema, value))) issues.push(...issuesFromAjv(validate.errors, file, {}, path));
  };
  const driver = factories.drivers.find((factory) => factory.name === config.driver.name);
  check(driver?.optionsSchema, { ...config.driver.options }, `driver.${config.driver.name}`);
  config.tasks.forEach((task, index) => {
    const condition = factories.conditions.find((factory) => factory.name === task.condition.type);
    check(condition?.optionsSchema, task.condition as Record<string, unknown>,
      `task[${index}].condition.${task.condition.type}`);
    task.module_input.forEach((input, inputIndex) => {
      const factory = factories.moduleInputs.find((one) => one.name === input.type);
      check(factory?.optionsSchema, input as unknown as Record<string, unknown>,
        `task[${index}].module_input[${inputIndex}].${input.type}`);
    });
  });
  return issues;
}

/** The block's fields: `type` is the block label, so it is passed only to schemas that declare it. */
function fieldsFor(schema: JsonSchema, value: Record<string, unknown>): Record<string, unknown> {
  const declared = (schema.properties as Record<string, unknown> | undefined)?.type !== undefined;
  if (declared || !("type" in value)) return value;
  const { type: _label, ...fields } = value;
  return fields;
}

const cache = new WeakMap<object, ValidateFunction | string>();
let ajv: Ajv | undefined;

/** Plugin schemas are compiled leniently (`strict: false`): linting them is the kernel's job. */
function compiled(schema: JsonSchema): ValidateFunction | string {
  let entry = cache.get(schema);
  if (entry === undefined) {
    ajv ??= new Ajv({ allErrors: true, verbose: true, strict: false }).addFormat("go-duration", { type: "string", validate: isGoDuration });
    try {
      entry = ajv.compile(schema as Record<string, unknown>);
    } catch (error) {
      entry = (error as Error).message;
    }
    cache.set(schema, entry);
  }
  return entry;
}
