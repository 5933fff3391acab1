/** @module The `condition "catalog-services"` factory: runs a task when service names appear or vanish. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { CatalogServicesSource } from "./catalog-services-source.ts";
import { catalogServicesConditionApi } from "./cts-api-faces.ts";
import { conditionRenames, catalogServicesConditionSchema, type CatalogServicesConditionBlock } from "./input-options.ts";
import { regexpProblems } from "./selector-rules.ts";
import { catalogServicesTemplate } from "./tfvars-template-text.ts";

// Typed by its schema (`satisfies`): every hook reads the block as the kernel decoded it.
export const catalogServicesConditionFactory: ConditionFactory = Object.freeze({
  name: "catalog-services",
  publishes: "catalog_services",
  publishesFor: (options: CatalogServicesConditionBlock) => options.use_as_module_input ? "catalog_services" : undefined,
  renamedFields: conditionRenames,
  validate: regexpProblems,
  optionsSchema: catalogServicesConditionSchema,
  api: catalogServicesConditionApi,
  template: (options: CatalogServicesConditionBlock) => catalogServicesTemplate(options, options.use_as_module_input),
  create: (options: CatalogServicesConditionBlock) => new CatalogServicesSource(options, true),
} satisfies ConditionFactory<CatalogServicesConditionBlock>);
