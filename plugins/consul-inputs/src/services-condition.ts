/** @module The `condition "services"` factory: runs a task when its selected instances change. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { servicesConditionApi } from "./cts-api-faces.ts";
import { conditionRenames, servicesConditionSchema, type ServicesConditionBlock } from "./input-options.ts";
import { ServicesSource } from "./services-source.ts";
import { servicesSelectorProblems } from "./selector-rules.ts";
import { servicesTemplate } from "./tfvars-template-text.ts";
import { fromDeprecatedServices } from "./deprecated-services-body.ts";

// Typed by its schema (`satisfies`): every hook reads the block as the kernel decoded it.
export const servicesConditionFactory: ConditionFactory = Object.freeze({
  name: "services",
  publishes: "services",
  publishesFor: (options: ServicesConditionBlock) => options.use_as_module_input ? "services" : undefined,
  renamedFields: conditionRenames,
  validate: servicesSelectorProblems,
  optionsSchema: servicesConditionSchema,
  api: servicesConditionApi,
  template: (options: ServicesConditionBlock) => servicesTemplate(options, options.use_as_module_input),
  fromDeprecatedServices,
  create: (options: ServicesConditionBlock) => new ServicesSource(options, options.use_as_module_input, true),
} satisfies ConditionFactory<ServicesConditionBlock>);
