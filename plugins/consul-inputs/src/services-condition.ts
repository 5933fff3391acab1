/** @module The `condition "services"` factory: runs a task when its selected instances change. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { servicesConditionApi } from "./cts-api-faces.ts";
import { conditionRenames, readServicesOptions, servicesConditionSchema, useAsModuleInput } from "./input-options.ts";
import { ServicesSource } from "./services-source.ts";
import { servicesSelectorProblems } from "./selector-rules.ts";
import { servicesTemplate } from "./tfvars-template-text.ts";
import { fromDeprecatedServices } from "./deprecated-services-body.ts";

export const servicesConditionFactory: ConditionFactory = Object.freeze({
  name: "services",
  publishes: "services",
  publishesFor: (options: Readonly<Record<string, unknown>>) => useAsModuleInput(options) ? "services" : undefined,
  renamedFields: conditionRenames,
  validate: servicesSelectorProblems,
  optionsSchema: servicesConditionSchema,
  api: servicesConditionApi,
  template: (options: Readonly<Record<string, unknown>>) => servicesTemplate(options, useAsModuleInput(options)),
  fromDeprecatedServices,
  create(config: Readonly<Record<string, unknown>>, taskName: string) {
    return new ServicesSource(readServicesOptions(config, `task "${taskName}" condition "services"`), true);
  },
});
