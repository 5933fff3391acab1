/**
 * @module The config check that needs the kernel's registries, run after plugins initialised: does a
 * plugin provide the configured driver, each task's condition and module inputs? (The kernel then
 * checks each block against its owner's schema: core/kernel/task-blocks.ts.)
 */
import type { ConfigIssue } from "./config-error.ts";
import type { LoadedConfig } from "./load-config.ts";

export interface RegisteredNames {
  readonly drivers: readonly string[];
  readonly conditions: readonly string[];
  readonly moduleInputs: readonly string[];
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
