/** @module The `condition "catalog-services"` factory: runs a task when service names appear or vanish. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { CatalogServicesSource } from "./catalog-services-source.ts";
import { catalogServicesConditionApi } from "./cts-api-faces.ts";
import { conditionRenames, catalogServicesConditionSchema, readCatalogServicesOptions, useAsModuleInput } from "./input-options.ts";
import { regexpProblems } from "./selector-rules.ts";
import { catalogServicesTemplate } from "./tfvars-template-text.ts";

export const catalogServicesConditionFactory: ConditionFactory = Object.freeze({
  name: "catalog-services",
  publishes: "catalog_services",
  publishesFor: (options: Readonly<Record<string, unknown>>) => useAsModuleInput(options) ? "catalog_services" : undefined,
  renamedFields: conditionRenames,
  validate: regexpProblems,
  optionsSchema: catalogServicesConditionSchema,
  api: catalogServicesConditionApi,
  template: (options: Readonly<Record<string, unknown>>) => catalogServicesTemplate(options, useAsModuleInput(options)),
  create(config: Readonly<Record<string, unknown>>, taskName: string) {
    const what = `task "${taskName}" condition "catalog-services"`;
    return new CatalogServicesSource(readCatalogServicesOptions(config, what), true);
  },
});
