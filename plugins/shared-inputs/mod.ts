/**
 * @module Code shared by the Consul-backed condition and module-input plugins: the pure data
 * builders for `services`, `catalog_services` and `consul_kv`, their option schemas, and the
 * input sources that watch Consul through the engine's shared watcher. Not a plugin itself.
 */
export { aggregateStatus, buildServicesMap, compareStrings, serviceKey, toServiceInstance } from "./src/services-map.ts";
export type { BuildServicesOptions, ServicesOrder } from "./src/services-map.ts";
export { buildCatalogServices, sameServiceNames } from "./src/catalog-services-map.ts";
export { buildConsulKv, decodeKvValue } from "./src/consul-kv-map.ts";
export type * from "./src/consul-responses.ts";
export { compileRe2 } from "./src/re2-regexp.ts";
export {
  catalogServicesConditionSchema, consulKvConditionSchema, consulKvModuleInputSchema, readCatalogServicesOptions,
  readConsulKvOptions, readServicesOptions, servicesConditionSchema, servicesModuleInputSchema,
} from "./src/input-options.ts";
export type { CatalogServicesOptions, ConsulKvOptions, ServicesOptions } from "./src/input-options.ts";
export { RenderingSource } from "./src/rendering-source.ts";
export type { RenderingSourceOptions } from "./src/rendering-source.ts";
export { catalogServicesQuery, healthServiceQuery, ServicesSource } from "./src/services-source.ts";
export { CatalogServicesSource, catalogServicesNodeMetaQuery } from "./src/catalog-services-source.ts";
export { ConsulKvSource, consulKvQuery } from "./src/consul-kv-source.ts";
