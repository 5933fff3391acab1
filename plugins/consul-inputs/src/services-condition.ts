/** @module The `condition "services"` factory: runs a task when its selected instances change. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { servicesConditionApi } from "./cts-api-faces.ts";
import {
  conditionRenames, readServicesOptions, servicesConditionSchema, useAsModuleInput, type ServicesConditionBlock,
} from "./input-options.ts";
import { ServicesSource } from "./services-source.ts";
import { servicesSelectorProblems } from "./selector-rules.ts";
import { servicesTemplate } from "./tfvars-template-text.ts";
import { fromDeprecatedServices } from "./deprecated-services-body.ts";

// Typed by its schema (`satisfies`); exported as registries see it, so a caller that hands it a
// block directly (a conformance case) need not spell the defaults the kernel fills in.
export const servicesConditionFactory: ConditionFactory = Object.freeze({
  name: "services",
  publishes: "services",
  publishesFor: (options: ServicesConditionBlock) => useAsModuleInput(options) ? "services" : undefined,
  renamedFields: conditionRenames,
  validate: servicesSelectorProblems,
  optionsSchema: servicesConditionSchema,
  api: servicesConditionApi,
  template: (options: ServicesConditionBlock) => servicesTemplate(options, useAsModuleInput(options)),
  fromDeprecatedServices,
  create(config: ServicesConditionBlock, taskName: string) {
    return new ServicesSource(readServicesOptions(config, `task "${taskName}" condition "services"`), true);
  },
} satisfies ConditionFactory<ServicesConditionBlock>);
