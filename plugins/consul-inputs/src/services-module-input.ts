/** @module The `module_input "services"` factory: the same data as the services condition, never a trigger. */
import type { ModuleInputFactory, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { readServicesOptions, servicesModuleInputSchema } from "./input-options.ts";
import { servicesModuleInputApi } from "./cts-api-faces.ts";
import { ServicesSource } from "./services-source.ts";
import { servicesSelectorProblems } from "./selector-rules.ts";
import { servicesTemplate } from "./tfvars-template-text.ts";
import { fromDeprecatedServices } from "./deprecated-services-body.ts";

export const servicesModuleInputFactory: ModuleInputFactory = Object.freeze({
  name: "services",
  publishes: "services",
  publishesFor: () => "services",
  validate: servicesSelectorProblems,
  optionsSchema: servicesModuleInputSchema,
  api: servicesModuleInputApi,
  template: (options: Readonly<Record<string, unknown>>) => servicesTemplate(options, true),
  fromDeprecatedServices,
  create(config: Readonly<Record<string, unknown>>, taskName: string, task?: TaskConfig) {
    const options = readServicesOptions(config, `task "${taskName}" module_input "services"`);
    return new ServicesSource({ ...options, userMeta: userMetaFor(options.userMeta, task), render: true }, false);
  },
});

/**
 * CTS's precedence for `cts_user_defined_meta`: a services condition's map (even one that does
 * not render `services` itself) comes before the module input's own.
 */
function userMetaFor(own: Readonly<Record<string, string>>, task: TaskConfig | undefined): Readonly<Record<string, string>> {
  const condition = task?.condition as { type?: unknown; cts_user_defined_meta?: unknown } | undefined;
  const meta = condition?.type === "services" ? condition.cts_user_defined_meta : undefined;
  if (typeof meta === "object" && meta !== null && Object.keys(meta).length > 0) {
    return meta as Readonly<Record<string, string>>;
  }
  return own;
}
