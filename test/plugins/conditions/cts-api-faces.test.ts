/**
 * The built-in conditions' and module inputs' API faces (`api` on their factories): the GET
 * representation is CTS's (api/representation.go: every field present, an unset one as its empty
 * value, keys in CTS's order) whichever shape the stored block has — the typed task of today's
 * config loader, the block as the kernel decodes it (owner's schema, defaults applied) or a block
 * with fields left out (a record another version stored): the kernel's factory (as the API gets it
 * from the registry) decodes it before the owner's `represent` reads it; and the request mapping
 * keeps CTS's quirks (a null `cts_user_defined_meta` value is dropped; a services condition with
 * non-empty `names` drops `regexp`).
 */
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import type { BlockApiFace, ConditionFactory, JsonSchema } from "../../../core/plugin-api/mod.ts";
import { BlockOptions } from "../../../core/kernel/block-options.ts";
import { createPluginAjv } from "../../../core/kernel/plugin-ajv.ts";
import { withValidatedInput } from "../../../core/kernel/validated-factories.ts";
import {
  catalogServicesConditionFactory, consulKvConditionFactory, consulKvModuleInputFactory, servicesConditionFactory,
  servicesModuleInputFactory,
} from "../../../plugins/consul-inputs/mod.ts";
import { scheduleConditionFactory } from "../../../plugins/condition-schedule/mod.ts";

type Block = Record<string, unknown>;
const ajv = new Ajv({ useDefaults: true, strict: false });

/**
 * The block as the kernel stores it: its fields checked against the owner's schema (which does not
 * list the label `type`), defaults applied, the label kept beside them.
 */
function decoded(schema: JsonSchema | undefined, block: Block): Block {
  const { type, ...fields } = structuredClone(block);
  expect(ajv.validate(schema as object, fields), JSON.stringify(ajv.errors)).toBe(true);
  return { type, ...fields };
}

const kernelBlocks = new BlockOptions(createPluginAjv());
const moduleInputs: readonly unknown[] = [servicesModuleInputFactory, consulKvModuleInputFactory];

/** The factory's face as the API sees it: the registry's factory, whose hooks the kernel hands decoded blocks. */
function face(factory: { readonly api?: BlockApiFace }): Required<BlockApiFace> {
  const kind = moduleInputs.includes(factory) ? "module_input" : "condition";
  const api = withValidatedInput(factory as ConditionFactory, kind, kernelBlocks).api;
  expect(api?.requestSchema && api.represent).toBeTruthy();
  // Members read one by one: the kernel's factory inherits the owner's (a spread would not copy them).
  const { requestSchema, represent } = api!;
  const fromRequest = api!.fromRequest ?? ((body) => ({ ...body }));
  return { requestSchema, fromRequest, represent } as Required<BlockApiFace>;
}

describe("built-in API faces", () => {
  it("represent a block in CTS's shape from the typed, the decoded and a partial block alike", () => {
    const cases: [string, { optionsSchema?: JsonSchema; api?: BlockApiFace }, Block, Block, Block][] = [
      // [what, factory, typed (today's config loader), minimal block, CTS's representation]
      ["services condition", servicesConditionFactory,
        { type: "services", names: ["web"], filter: "", datacenter: "", namespace: "", cts_user_defined_meta: {}, use_as_module_input: true },
        { type: "services", names: ["web"] },
        { regexp: "", names: ["web"], filter: "", datacenter: "", namespace: "", cts_user_defined_meta: {}, use_as_module_input: true }],
      ["catalog-services condition", catalogServicesConditionFactory,
        { type: "catalog-services", regexp: "^w", datacenter: "dc2", namespace: "", node_meta: {}, use_as_module_input: false },
        { type: "catalog-services", regexp: "^w", datacenter: "dc2", use_as_module_input: false },
        { regexp: "^w", datacenter: "dc2", namespace: "", node_meta: {}, use_as_module_input: false }],
      ["consul-kv condition", consulKvConditionFactory,
        { type: "consul-kv", path: "a/b", recurse: false, datacenter: "", namespace: "", use_as_module_input: true },
        { type: "consul-kv", path: "a/b" },
        { path: "a/b", recurse: false, datacenter: "", namespace: "", use_as_module_input: true }],
      ["schedule condition", scheduleConditionFactory, { type: "schedule", cron: "* * * * *" }, { type: "schedule", cron: "* * * * *" }, { cron: "* * * * *" }],
      ["services module input", servicesModuleInputFactory,
        { type: "services", regexp: "^db", filter: "", datacenter: "", namespace: "", cts_user_defined_meta: { k: "v" } },
        { type: "services", regexp: "^db", cts_user_defined_meta: { k: "v" } },
        { regexp: "^db", names: [], filter: "", datacenter: "", namespace: "", cts_user_defined_meta: { k: "v" } }],
      ["consul-kv module input", consulKvModuleInputFactory,
        { type: "consul-kv", path: "p", recurse: true, datacenter: "", namespace: "ns" },
        { type: "consul-kv", path: "p", recurse: true, namespace: "ns" },
        { path: "p", recurse: true, datacenter: "", namespace: "ns" }],
    ];
    for (const [what, factory, typed, minimal, shown] of cases) {
      const { represent } = face(factory);
      for (const block of [typed, decoded(factory.optionsSchema, minimal), minimal]) {
        // Stringified: CTS's key order is part of the answer.
        expect(JSON.stringify(represent(block)), what).toBe(JSON.stringify(shown));
      }
    }
  });

  it("show the deprecated source_includes_var as use_as_module_input (use_as_module_input wins)", () => {
    const { represent } = face(consulKvConditionFactory);
    expect(represent({ type: "consul-kv", path: "p", source_includes_var: false }).use_as_module_input).toBe(false);
    expect(represent({ type: "consul-kv", path: "p", source_includes_var: false, use_as_module_input: true }).use_as_module_input).toBe(true);
  });

  it("map requests with CTS's quirks, without touching the body they get", () => {
    const body = Object.freeze({ names: ["a"], regexp: "b", cts_user_defined_meta: Object.freeze({ k: "v", gone: null }) });
    expect(face(servicesConditionFactory).fromRequest(body)).toEqual({ names: ["a"], cts_user_defined_meta: { k: "v" } });
    expect(face(servicesConditionFactory).fromRequest({ names: [], regexp: "b" })).toEqual({ names: [], regexp: "b" });
    // The quirk is the condition's only: a module input passes both on to its owner's rules.
    expect(face(servicesModuleInputFactory).fromRequest(body)).toEqual({ names: ["a"], regexp: "b", cts_user_defined_meta: { k: "v" } });
  });
});
