/** @module The `module_input "services"` factory: the same data as the services condition, never a trigger. */
import type { ModuleInputFactory, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { servicesModuleInputSchema, type ServicesModuleInputBlock } from "./input-options.ts";
import { servicesModuleInputApi } from "./cts-api-faces.ts";
import { ServicesSource } from "./services-source.ts";
import { servicesSelectorProblems } from "./selector-rules.ts";
import { servicesTemplate } from "./tfvars-template-text.ts";
import { fromDeprecatedServices } from "./deprecated-services-body.ts";

// Typed by its schema (`satisfies`): every hook reads the block as the kernel decoded it.
export const servicesModuleInputFactory: ModuleInputFactory = Object.freeze({
  name: "services",
  publishes: "services",
  publishesFor: () => "services",
  validate: servicesSelectorProblems,
  optionsSchema: servicesModuleInputSchema,
  api: servicesModuleInputApi,
  template: (options: ServicesModuleInputBlock) => servicesTemplate(options, true),
  fromDeprecatedServices,
  create(options: ServicesModuleInputBlock, _taskName: string, task?: TaskConfig) {
    const meta = conditionUserMeta(task);
    return new ServicesSource(meta === undefined ? options : { ...options, cts_user_defined_meta: meta }, true, false);
  },
} satisfies ModuleInputFactory<ServicesModuleInputBlock>);

/**
 * CTS's precedence for `cts_user_defined_meta`: a services condition's map (even one that does
 * not render `services` itself), when it sets one, comes before the module input's own.
 */
function conditionUserMeta(task: TaskConfig | undefined): Readonly<Record<string, string>> | undefined {
  const condition = task?.condition as { type?: unknown; cts_user_defined_meta?: unknown } | undefined;
  const meta = condition?.type === "services" ? condition.cts_user_defined_meta : undefined;
  const set = typeof meta === "object" && meta !== null && Object.keys(meta).length > 0;
  return set ? meta as Readonly<Record<string, string>> : undefined;
}
