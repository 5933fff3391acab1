/**
 * @module CTS's deprecated task field `services = [...]`, completed by the owner of the block it
 * stands for. The loader, which runs before any plugin registers, writes only the label (a
 * `condition "services"`, or a `module_input "services"` next to another condition, core/config/build-task.ts);
 * once plugins are registered the kernel asks that label's factory for the body
 * (`fromDeprecatedServices`, from the list and the top-level `service` blocks), before the block is
 * checked and completed like a written one. Core spells no field of the body.
 */
import type { ConfigIssue } from "../config/config-error.ts";
import { SERVICES_LABEL } from "../config/build-task.ts";
import type {
  ConditionConfig, ConditionFactory, CtsConfig, ModuleInputFactory, Registry, TaskConfig,
} from "../plugin-api/mod.ts";

type Fields = Readonly<Record<string, unknown>>;

export interface ServicesFieldOwners {
  readonly conditions: Registry<ConditionFactory>;
  readonly moduleInputs: Registry<ModuleInputFactory>;
}

/**
 * The task with the block its `services` list stands for built by the block's owner; unchanged when
 * the task has no list, the block was already built, or the owner has no `fromDeprecatedServices`
 * (the block check then reports the block as written). `warn` receives the owner's warnings.
 */
export function withServicesField(
  task: TaskConfig,
  serviceBlocks: readonly Fields[],
  owners: ServicesFieldOwners,
  warn: (message: string) => void = () => {},
): TaskConfig {
  const ids = task.services;
  if (ids === undefined) return task;
  // The loader wrote a bare label for the list: the condition when none was written, else the last module input.
  if (isBareLabel(task.condition)) {
    const body = owners.conditions.get(SERVICES_LABEL)?.fromDeprecatedServices?.(ids, serviceBlocks, warn);
    return body === undefined ? task : { ...task, condition: { ...body, type: SERVICES_LABEL } };
  }
  const last = task.module_input.length - 1;
  if (last < 0 || !isBareLabel(task.module_input[last]!)) return task;
  const body = owners.moduleInputs.get(SERVICES_LABEL)?.fromDeprecatedServices?.(ids, serviceBlocks, warn);
  if (body === undefined) return task;
  return { ...task, module_input: [...task.module_input.slice(0, last), { ...body, type: SERVICES_LABEL }] };
}

/** The configuration with every task's `services` list built, and the warnings its owners gave. */
export function withServicesFields(
  config: CtsConfig, fileOf: (path: string) => string | undefined, owners: ServicesFieldOwners,
): { readonly config: CtsConfig; readonly warnings: readonly ConfigIssue[] } {
  const warnings: ConfigIssue[] = [];
  const tasks = config.tasks.map((task, index) => withServicesField(task, config.service_blocks ?? [], owners, (message) => {
    const path = `task[${index}]`;
    warnings.push({ file: fileOf(path) ?? "", path: `${path}.services`, message });
  }));
  return { config: { ...config, tasks }, warnings };
}

function isBareLabel(block: ConditionConfig): boolean {
  return block.type === SERVICES_LABEL && Object.keys(block).length === 1;
}
