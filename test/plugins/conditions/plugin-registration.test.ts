/**
 * @module Each plugin registers its factory under CTS's block label, and each factory's schema
 * accepts the normalised blocks core/config produces while rejecting misspelt fields.
 */
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import type {
  ConditionFactory, ModuleInputFactory, PluginContext, PluginDefinition, TokenMap,
} from "../../../core/plugin-api/mod.ts";
import { NamedRegistry } from "../../../core/kernel/registries/named-registry.ts";
import conditionSchedule from "../../../plugins/condition-schedule/mod.ts";
import consulInputs from "../../../plugins/consul-inputs/mod.ts";
import { conditionSource, moduleInputSource } from "./helpers/decoded-source.ts";

const conditions = new NamedRegistry<ConditionFactory>("condition");
const moduleInputs = new NamedRegistry<ModuleInputFactory>("module input");

async function init(plugin: PluginDefinition<unknown, TokenMap>): Promise<void> {
  const deps = { conditions, moduleInputs } as never;
  await plugin.init?.(deps, {} as PluginContext<unknown>);
}

describe("condition and module-input plugins", async () => {
  for (const plugin of [consulInputs, conditionSchedule]) await init(plugin as PluginDefinition<unknown, TokenMap>);
  const ajv = new Ajv({ useDefaults: false, strict: false });
  // The label (`type`) is not a field of the body: the kernel keeps it out of the owner's check.
  const valid = (factory: { optionsSchema?: unknown }, { type: _label, ...body }: Record<string, unknown>) =>
    ajv.validate(factory.optionsSchema as object, body);

  it("register under the CTS labels with the right kinds", () => {
    expect(conditions.names().sort()).toEqual(["catalog-services", "consul-kv", "schedule", "services"]);
    expect(moduleInputs.names().sort()).toEqual(["consul-kv", "services"]);
    expect(consulInputs.kind).toBe("condition");
    expect(conditionSchedule.kind).toBe("condition");
  });

  it("accept normalised blocks and reject unknown fields", () => {
    const services = conditions.get("services")!;
    const block = { type: "services", names: ["web"], filter: "", datacenter: "", namespace: "", cts_user_defined_meta: {}, use_as_module_input: true };
    expect(valid(services, block)).toBe(true);
    expect(valid(services, { ...block, nmaes: ["x"] })).toBe(false);
    const { use_as_module_input: _, ...inputBlock } = block;
    expect(valid(moduleInputs.get("services")!, inputBlock)).toBe(true);
    expect(valid(moduleInputs.get("services")!, block)).toBe(false);
    const catalog = { type: "catalog-services", regexp: "", datacenter: "", namespace: "", node_meta: {}, use_as_module_input: true };
    expect(valid(conditions.get("catalog-services")!, catalog)).toBe(true);
    const kv = { type: "consul-kv", path: "a", recurse: false, datacenter: "", namespace: "", use_as_module_input: false };
    expect(valid(conditions.get("consul-kv")!, kv)).toBe(true);
    expect(valid(conditions.get("consul-kv")!, { ...kv, path: "" })).toBe(false);
    expect(valid(conditions.get("schedule")!, { type: "schedule", cron: "@hourly" })).toBe(true);
  });

  it("create a source per task that renders the right variable", () => {
    // Each block decoded as the kernel decodes it before `create` (helpers/decoded-source.ts).
    const web = { type: "services", names: ["web"] };
    expect(conditionSource(conditions.get("services")!, web, "t").variable).toBe("services");
    expect(conditionSource(conditions.get("services")!, { ...web, use_as_module_input: false }, "t").variable).toBeUndefined();
    expect(conditionSource(conditions.get("catalog-services")!, { regexp: "" }, "t").variable).toBe("catalog_services");
    expect(conditionSource(conditions.get("consul-kv")!, { path: "k" }, "t").variable).toBe("consul_kv");
    expect(moduleInputSource(moduleInputs.get("consul-kv")!, { path: "k" }, "t").variable).toBe("consul_kv");
    expect(() => conditionSource(conditions.get("services")!, { regexp: "(" }, "t")).toThrow(/regexp: is not a valid RE2 regular expression/);
  });
});
