/**
 * @module The services condition and module input against the embedded Consul server: exactly
 * which changes run the task (§4.2) and what `services` holds after each (§5.3).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceInstance, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { decodeInputBlock, eventually, latest, recordingContext } from "../../../core/plugin-testkit/mod.ts";
import {
  catalogServicesQuery, healthServiceQuery, servicesConditionFactory, servicesModuleInputFactory, type ServicesSelector,
} from "../../../plugins/consul-inputs/mod.ts";
import { type ConsulHarness, startConsulHarness } from "./helpers/consul-harness.ts";
import { conditionSource, moduleInputSource } from "./helpers/decoded-source.ts";

type Services = Record<string, ServiceInstance>;

let consul: ConsulHarness;
beforeAll(async () => {
  consul = await startConsulHarness();
});
afterAll(async () => {
  await consul?.close();
});

const services = (ctx: ReturnType<typeof recordingContext>) => (latest(ctx, "services") ?? {}) as Services;
/** The block as the source reads it, for asking Consul the source's own queries. */
const selector = (block: Record<string, unknown>) => decodeInputBlock(servicesConditionFactory, "condition", block) as ServicesSelector;
const outputOf = (data: unknown) => (data as { Checks: { Output: string }[] }[]).flatMap((e) => e.Checks.map((c) => c.Output));

describe("condition \"services\" (names)", () => {
  it("renders passing instances and triggers on add, status and remove, not on check output", async () => {
    await consul.register({ node: "n1", id: "web-1", name: "web", tags: ["b", "a"], meta: { v: "1" } });
    const ctx = recordingContext(consul.watcher);
    const config = { type: "services", names: ["web"], cts_user_defined_meta: { owner: "team-a" } };
    const source = conditionSource(servicesConditionFactory, config, "web-task");
    await source.start(ctx);

    expect(Object.keys(services(ctx))).toEqual(["web-1.n1.dc1"]);
    expect(services(ctx)["web-1.n1.dc1"]).toMatchObject({
      id: "web-1", name: "web", kind: "", address: "10.0.0.1", port: 80, tags: ["a", "b"], meta: { v: "1" },
      status: "passing", node: "n1", node_address: "10.0.0.1", node_datacenter: "dc1", namespace: "",
      cts_user_defined_meta: { owner: "team-a" },
    });
    expect(ctx.triggers).toEqual([]);

    // Check output changes, status stays passing: Consul answers, nothing rendered changes.
    await consul.register({ node: "n1", id: "web-1", name: "web", tags: ["b", "a"], meta: { v: "1" },
      checks: [{ CheckID: "web-1-check", Status: "passing", Output: "HTTP 200 at 12:00:01" }] });
    const query = healthServiceQuery("web", selector(config));
    await consul.observe(query, (r) => outputOf(r.data).includes("HTTP 200 at 12:00:01"), "the new check output");
    expect(ctx.published).toHaveLength(1);
    expect(ctx.triggers).toEqual([]);

    await consul.register({ node: "n2", id: "web-2", name: "web" });
    await eventually(() => "web-2.n2.dc1" in services(ctx), "web-2 to render");
    expect(Object.keys(services(ctx))).toEqual(["web-1.n1.dc1", "web-2.n2.dc1"]);
    expect(ctx.triggers).toEqual([{ kind: "dependency", detail: query.key }]);

    // Passing-only: a failing instance leaves the map.
    await consul.register({ node: "n2", id: "web-2", name: "web", checks: [{ CheckID: "web-2-check", Status: "critical" }] });
    await eventually(() => !("web-2.n2.dc1" in services(ctx)), "web-2 to leave when critical");
    expect(ctx.triggers).toHaveLength(2);

    await consul.deregister("n1", "web-1");
    await eventually(() => Object.keys(services(ctx)).length === 0, "web-1 to leave when deregistered");
    expect(ctx.triggers).toHaveLength(3);
    expect(ctx.published).toHaveLength(4);
    source.stop();
    await consul.deregister("n2", "web-2");
  });

  it("with a filter keeps failing instances and triggers on a status change alone", async () => {
    await consul.register({ node: "n1", id: "api-1", name: "api", tags: ["prod"] });
    await consul.register({ node: "n1", id: "api-2", name: "api", tags: ["dev"] });
    const ctx = recordingContext(consul.watcher);
    const source = conditionSource(servicesConditionFactory, { names: ["api"], filter: "\"prod\" in Service.Tags" }, "api-task");
    await source.start(ctx);
    expect(Object.keys(services(ctx))).toEqual(["api-1.n1.dc1"]);

    await consul.register({ node: "n1", id: "api-1", name: "api", tags: ["prod"], checks: [{ CheckID: "api-1-check", Status: "warning" }] });
    await eventually(() => services(ctx)["api-1.n1.dc1"]?.status === "warning", "api-1 to turn warning");
    expect(ctx.triggers).toHaveLength(1);
    await consul.register({ node: "n1", id: "api-1", name: "api", tags: ["prod"], checks: [{ CheckID: "api-1-check", Status: "critical" }] });
    await eventually(() => services(ctx)["api-1.n1.dc1"]?.status === "critical", "api-1 to turn critical");
    expect(ctx.triggers).toHaveLength(2);
    source.stop();
    await consul.deregister("n1", "api-1");
    await consul.deregister("n1", "api-2");
  });

  it("orders several names by service name, then node, then id", async () => {
    await consul.register({ node: "n2", id: "db-b", name: "db" });
    await consul.register({ node: "n1", id: "db-a", name: "db" });
    await consul.register({ node: "n1", id: "cache", name: "cache" });
    const ctx = recordingContext(consul.watcher);
    const source = conditionSource(servicesConditionFactory, { names: ["db", "cache"] }, "order-task");
    await source.start(ctx);
    expect(Object.keys(services(ctx))).toEqual(["cache.n1.dc1", "db-a.n1.dc1", "db-b.n2.dc1"]);
    source.stop();
    for (const [node, id] of [["n2", "db-b"], ["n1", "db-a"], ["n1", "cache"]] as const) await consul.deregister(node, id);
  });

  it("shares one blocking query between tasks watching the same service", async () => {
    const before = consul.watcher.stats().open;
    const a = conditionSource(servicesConditionFactory, { names: ["shared"] }, "a");
    const b = moduleInputSource(servicesModuleInputFactory, { names: ["shared"] }, "b");
    await Promise.all([a.start(recordingContext(consul.watcher)), b.start(recordingContext(consul.watcher))]);
    expect(consul.watcher.stats().open).toBe(before + 1);
    a.stop();
    b.stop();
    expect(consul.watcher.stats().open).toBe(before);
  });
});

describe("condition \"services\" (regexp)", () => {
  it("picks up newly registered matching services and drops vanished ones", async () => {
    await consul.register({ node: "n2", id: "pay-a", name: "pay-a" });
    const ctx = recordingContext(consul.watcher);
    const config = { regexp: "^pay-" };
    const source = conditionSource(servicesConditionFactory, config, "pay-task");
    await source.start(ctx);
    expect(Object.keys(services(ctx))).toEqual(["pay-a.n2.dc1"]);
    const open = consul.watcher.stats().open;

    await consul.register({ node: "n1", id: "pay-b", name: "pay-b" });
    await eventually(() => "pay-b.n1.dc1" in services(ctx), "pay-b to render");
    // Regexp order: node first, across services.
    expect(Object.keys(services(ctx))).toEqual(["pay-b.n1.dc1", "pay-a.n2.dc1"]);
    expect(ctx.triggers).toHaveLength(1);
    expect(consul.watcher.stats().open).toBe(open + 1);

    // A non-matching name and a matching one with no passing instance render nothing new.
    await consul.register({ node: "n1", id: "other", name: "other" });
    await consul.register({ node: "n1", id: "pay-c", name: "pay-c", checks: [{ CheckID: "pay-c-check", Status: "critical" }] });
    await consul.observe(catalogServicesQuery(selector(config)), (r) => "pay-c" in (r.data as object), "pay-c in the catalog");
    await consul.observe(healthServiceQuery("pay-c", selector(config)), () => true, "pay-c's health answer");
    expect(ctx.triggers).toHaveLength(1);
    expect(ctx.published).toHaveLength(2);

    await consul.deregister("n2", "pay-a");
    await eventually(() => !("pay-a.n2.dc1" in services(ctx)), "pay-a to leave");
    expect(ctx.triggers).toHaveLength(2);
    await eventually(() => consul.watcher.stats().open === open + 1, "pay-a's health query to close");
    source.stop();
    for (const [node, id] of [["n1", "pay-b"], ["n1", "other"], ["n1", "pay-c"]] as const) await consul.deregister(node, id);
  });
});

describe("module_input \"services\"", () => {
  it("publishes every change but never triggers, and takes the condition's user meta first", async () => {
    await consul.register({ node: "n1", id: "mi-1", name: "mi" });
    const ctx = recordingContext(consul.watcher);
    const task = { condition: { type: "services", names: ["x"], cts_user_defined_meta: { from: "condition" } } } as unknown as TaskConfig;
    const source = moduleInputSource(servicesModuleInputFactory, { names: ["mi"], cts_user_defined_meta: { from: "input" } }, "t", task);
    expect(source.variable).toBe("services");
    await source.start(ctx);
    expect(services(ctx)["mi-1.n1.dc1"]?.cts_user_defined_meta).toEqual({ from: "condition" });
    await consul.register({ node: "n2", id: "mi-2", name: "mi" });
    await eventually(() => "mi-2.n2.dc1" in services(ctx), "mi-2 to render");
    expect(ctx.triggers).toEqual([]);
    source.stop();
    await consul.deregister("n1", "mi-1");
    await consul.deregister("n2", "mi-2");
  });
});
