/**
 * Type-level: every hook of the built-in condition and module-input owners reads its block typed by
 * the block's own schema (`OptionsOf<typeof schema>`), never a hand-written twin, so a field added
 * to or dropped from a schema is a type error wherever the code reads it (checked by `tsc`).
 */
import { describe, expectTypeOf, it } from "vitest";
import type { OptionsOf } from "../../../core/plugin-api/mod.ts";
import { CatalogServicesSource } from "../../../plugins/consul-inputs/src/catalog-services-source.ts";
import { ConsulKvSource } from "../../../plugins/consul-inputs/src/consul-kv-source.ts";
import type {
  catalogServicesConditionSchema, consulKvModuleInputSchema, servicesModuleInputSchema,
} from "../../../plugins/consul-inputs/src/input-options.ts";
import { servicesSelectorProblems } from "../../../plugins/consul-inputs/src/selector-rules.ts";
import { ServicesSource } from "../../../plugins/consul-inputs/src/services-source.ts";
import { catalogServicesTemplate, consulKvTemplate, servicesTemplate } from "../../../plugins/consul-inputs/src/tfvars-template-text.ts";
import type { nodesModuleInputSchema } from "../../../plugins/condition-nodes/src/nodes-options.ts";
import { NodesSource } from "../../../plugins/condition-nodes/src/nodes-source.ts";
import { nodesTemplate } from "../../../plugins/condition-nodes/src/nodes-template.ts";

type Services = OptionsOf<typeof servicesModuleInputSchema>;
type Catalog = OptionsOf<typeof catalogServicesConditionSchema>;
type Kv = OptionsOf<typeof consulKvModuleInputSchema>;
type Nodes = OptionsOf<typeof nodesModuleInputSchema>;

describe("block option types", () => {
  it("the sources, templates and validate rules take their schema's options", () => {
    expectTypeOf(ServicesSource).constructorParameters.toEqualTypeOf<[Services, boolean, boolean]>();
    expectTypeOf(servicesTemplate).parameter(0).toEqualTypeOf<Services>();
    expectTypeOf(servicesSelectorProblems).parameter(0).toEqualTypeOf<Services>();
    expectTypeOf(CatalogServicesSource).constructorParameters.toEqualTypeOf<[Catalog, boolean]>();
    expectTypeOf(catalogServicesTemplate).parameter(0).toEqualTypeOf<Catalog>();
    expectTypeOf(ConsulKvSource).constructorParameters.toEqualTypeOf<[Kv, boolean, boolean]>();
    expectTypeOf(consulKvTemplate).parameter(0).toEqualTypeOf<Kv>();
    expectTypeOf(NodesSource).constructorParameters.toEqualTypeOf<[Nodes, boolean, boolean]>();
    expectTypeOf(nodesTemplate).parameter(0).toEqualTypeOf<Nodes>();
  });
});
