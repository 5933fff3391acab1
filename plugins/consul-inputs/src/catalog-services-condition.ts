/** @module The `condition "catalog-services"` factory: runs a task when service names appear or vanish. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { CatalogServicesSource } from "./catalog-services-source.ts";
import { catalogServicesConditionApi } from "./cts-api-faces.ts";
import {
  conditionRenames, catalogServicesConditionSchema, readCatalogServicesOptions, useAsModuleInput, type CatalogServicesConditionBlock,
} from "./input-options.ts";
import { regexpProblems } from "./selector-rules.ts";
import { catalogServicesTemplate } from "./tfvars-template-text.ts";

// Typed by its schema (`satisfies`); exported as registries see it, so a caller that hands it a
// block directly (a conformance case) need not spell the defaults the kernel fills in.
export const catalogServicesConditionFactory: ConditionFactory = Object.freeze({
  name: "catalog-services",
  publishes: "catalog_services",
  publishesFor: (options: CatalogServicesConditionBlock) => useAsModuleInput(options) ? "catalog_services" : undefined,
  renamedFields: conditionRenames,
  validate: regexpProblems,
  optionsSchema: catalogServicesConditionSchema,
  api: catalogServicesConditionApi,
  template: (options: CatalogServicesConditionBlock) => catalogServicesTemplate(options, useAsModuleInput(options)),
  create(config: CatalogServicesConditionBlock, taskName: string) {
    const what = `task "${taskName}" condition "catalog-services"`;
    return new CatalogServicesSource(readCatalogServicesOptions(config, what), true);
  },
} satisfies ConditionFactory<CatalogServicesConditionBlock>);
