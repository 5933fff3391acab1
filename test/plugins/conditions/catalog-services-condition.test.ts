/**
 * @module The catalog-services condition against the embedded Consul server: it publishes name →
 * sorted tags, and runs the task only when the set of matching names changes (§4.2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeInputBlock, eventually, latest, recordingContext } from "../../../core/plugin-testkit/mod.ts";
import {
  catalogServicesConditionFactory, catalogServicesNodeMetaQuery, type CatalogServicesConditionBlock,
} from "../../../plugins/consul-inputs/mod.ts";
import { type ConsulHarness, startConsulHarness } from "./helpers/consul-harness.ts";
import { conditionSource } from "./helpers/decoded-source.ts";

let consul: ConsulHarness;
beforeAll(async () => {
  consul = await startConsulHarness();
});
afterAll(async () => {
  await consul?.close();
});

type Catalog = Record<string, string[]>;
const catalog = (ctx: ReturnType<typeof recordingContext>) => (latest(ctx, "catalog_services") ?? {}) as Catalog;

describe("condition \"catalog-services\"", () => {
  it("publishes tag changes without triggering and triggers when names appear or vanish", async () => {
    await consul.register({ node: "n1", id: "cat-web-1", name: "cat-web", tags: ["v1", "blue"] });
    const ctx = recordingContext(consul.watcher);
    const config = { type: "catalog-services", regexp: "^cat-" };
    const source = conditionSource(catalogServicesConditionFactory, config, "catalog-task");
    await source.start(ctx);
    expect(catalog(ctx)).toEqual({ "cat-web": ["blue", "v1"] });
    expect(ctx.triggers).toEqual([]);

    await consul.register({ node: "n1", id: "cat-web-1", name: "cat-web", tags: ["v2", "blue"] });
    await eventually(() => catalog(ctx)["cat-web"]?.includes("v2") === true, "the new tag to render");
    expect(ctx.triggers).toEqual([]);

    // A second instance is an instance change, then a tag appears through it: neither is a new name.
    await consul.register({ node: "n2", id: "cat-web-2", name: "cat-web", tags: ["blue"] });
    await consul.register({ node: "n2", id: "cat-web-2", name: "cat-web", tags: ["blue", "canary"] });
    await eventually(() => catalog(ctx)["cat-web"]?.includes("canary") === true, "the second instance's tag");
    expect(catalog(ctx)).toEqual({ "cat-web": ["blue", "canary", "v2"] });
    expect(ctx.triggers).toEqual([]);
    const query = catalogServicesNodeMetaQuery(decodeInputBlock(catalogServicesConditionFactory, "condition", config) as CatalogServicesConditionBlock);

    await consul.register({ node: "n1", id: "cat-db", name: "cat-db", tags: ["primary"] });
    await eventually(() => "cat-db" in catalog(ctx), "cat-db to render");
    expect(Object.keys(catalog(ctx))).toEqual(["cat-db", "cat-web"]);
    expect(ctx.triggers).toEqual([{ kind: "dependency", detail: query.key }]);

    // A non-matching name is not this task's business.
    await consul.register({ node: "n1", id: "dog", name: "dog" });
    await consul.observe(query, (r) => "dog" in (r.data as object), "dog in the catalog");
    expect(ctx.triggers).toHaveLength(1);

    await consul.deregister("n1", "cat-db");
    await eventually(() => !("cat-db" in catalog(ctx)), "cat-db to leave");
    expect(ctx.triggers).toHaveLength(2);
    source.stop();
    for (const [node, id] of [["n1", "cat-web-1"], ["n2", "cat-web-2"], ["n1", "dog"]] as const) await consul.deregister(node, id);
  });

  it("only sees services on nodes with the given node meta", async () => {
    await consul.register({ node: "rack1", id: "meta-a", name: "meta-a", nodeMeta: { rack: "r1", zone: "z" } });
    await consul.register({ node: "rack2", id: "meta-b", name: "meta-b", nodeMeta: { rack: "r2", zone: "z" } });
    const one = recordingContext(consul.watcher);
    const byRack = conditionSource(catalogServicesConditionFactory, { regexp: "^meta-", node_meta: { rack: "r1" } }, "t1");
    await byRack.start(one);
    expect(catalog(one)).toEqual({ "meta-a": [] });
    const two = recordingContext(consul.watcher);
    const byRackAndZone = conditionSource(catalogServicesConditionFactory, { regexp: "^meta-", node_meta: { zone: "z", rack: "r2" } }, "t2");
    await byRackAndZone.start(two);
    expect(catalog(two)).toEqual({ "meta-b": [] });
    byRack.stop();
    byRackAndZone.stop();
    await consul.deregister("rack1", "meta-a");
    await consul.deregister("rack2", "meta-b");
  });

  it("with use_as_module_input = false still triggers but publishes nothing", async () => {
    const ctx = recordingContext(consul.watcher);
    const source = conditionSource(catalogServicesConditionFactory, { regexp: "^hidden-", use_as_module_input: false }, "t");
    expect(source.variable).toBeUndefined();
    await source.start(ctx);
    await consul.register({ node: "n1", id: "hidden-1", name: "hidden-1" });
    await eventually(() => ctx.triggers.length === 1, "a trigger for hidden-1");
    expect(ctx.published).toEqual([]);
    source.stop();
    await consul.deregister("n1", "hidden-1");
  });
});
