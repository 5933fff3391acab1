/** @module The `module_input "services"` factory: the same data as the services condition, never a trigger. */
import type { ModuleInputFactory, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { readServicesOptions, servicesModuleInputSchema, type ServicesModuleInputBlock } from "./input-options.ts";
import { servicesModuleInputApi } from "./cts-api-faces.ts";
import { ServicesSource } from "./services-source.ts";
import { servicesSelectorProblems } from "./selector-rules.ts";
import { servicesTemplate } from "./tfvars-template-text.ts";
import { fromDeprecatedServices } from "./deprecated-services-body.ts";

// Typed by its schema (`satisfies`); exported as registries see it, so a caller that hands it a
// block directly (a conformance case) need not spell the defaults the kernel fills in.
export const servicesModuleInputFactory: ModuleInputFactory = Object.freeze({
  name: "services",
  publishes: "services",
  publishesFor: () => "services",
  validate: servicesSelectorProblems,
  optionsSchema: servicesModuleInputSchema,
  api: servicesModuleInputApi,
  template: (options: ServicesModuleInputBlock) => servicesTemplate(options, true),
  fromDeprecatedServices,
  create(config: ServicesModuleInputBlock, taskName: string, task?: TaskConfig) {
    const options = readServicesOptions(config, `task "${taskName}" module_input "services"`);
    return new ServicesSource({ ...options, userMeta: userMetaFor(options.userMeta, task), render: true }, false);
  },
} satisfies ModuleInputFactory<ServicesModuleInputBlock>);

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
