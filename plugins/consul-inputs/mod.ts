/**
 * @module Built-in plugin: CTS's Consul-backed task inputs. It registers `condition "services"`,
 * `condition "catalog-services"`, `condition "consul-kv"`, `module_input "services"` and
 * `module_input "consul-kv"`, which share their data builders, option schemas and Consul-watching
 * sources; one plugin owns them so that no plugin imports another. The named exports are for tests.
 */
import { conditionRegistryToken, definePlugin, moduleInputRegistryToken } from "../../core/plugin-api/mod.ts";
import { catalogServicesConditionFactory } from "./src/catalog-services-condition.ts";
import { consulKvConditionFactory } from "./src/consul-kv-condition.ts";
import { consulKvModuleInputFactory } from "./src/consul-kv-module-input.ts";
import { servicesConditionFactory } from "./src/services-condition.ts";
import { servicesModuleInputFactory } from "./src/services-module-input.ts";

export {
  catalogServicesConditionFactory, consulKvConditionFactory, consulKvModuleInputFactory, servicesConditionFactory,
  servicesModuleInputFactory,
};
export { aggregateStatus, buildServicesMap, compareStrings, serviceKey, toServiceInstance } from "./src/services-map.ts";
export type { BuildServicesOptions, ServicesOrder } from "./src/services-map.ts";
export { buildCatalogServices, sameServiceNames } from "./src/catalog-services-map.ts";
export { buildConsulKv, decodeKvValue } from "./src/consul-kv-map.ts";
export type * from "./src/consul-responses.ts";
export { compileRe2 } from "./src/re2-regexp.ts";
export {
  catalogServicesConditionSchema, consulKvConditionSchema, consulKvModuleInputSchema, servicesConditionSchema,
  servicesModuleInputSchema,
} from "./src/input-options.ts";
export type {
  CatalogServicesConditionBlock, ConsulKvConditionBlock, ConsulKvModuleInputBlock, ConsulKvSelector, ServicesConditionBlock,
  ServicesModuleInputBlock, ServicesSelector,
} from "./src/input-options.ts";
export { RenderingSource } from "./src/rendering-source.ts";
export type { RenderingSourceOptions } from "./src/rendering-source.ts";
export { catalogServicesQuery, healthServiceQuery, ServicesSource } from "./src/services-source.ts";
export { CatalogServicesSource, catalogServicesNodeMetaQuery } from "./src/catalog-services-source.ts";
export { ConsulKvSource, consulKvQuery } from "./src/consul-kv-source.ts";

export default definePlugin({
  id: "consul-inputs",
  kind: "condition",
  description: "conditions \"services\", \"catalog-services\", \"consul-kv\" and module_inputs \"services\", \"consul-kv\": Consul data that runs tasks and fills their variables",
  deps: { conditions: conditionRegistryToken, moduleInputs: moduleInputRegistryToken },
  init({ conditions, moduleInputs }) {
    conditions.register(servicesConditionFactory);
    conditions.register(catalogServicesConditionFactory);
    conditions.register(consulKvConditionFactory);
    moduleInputs.register(servicesModuleInputFactory);
    moduleInputs.register(consulKvModuleInputFactory);
  },
});
