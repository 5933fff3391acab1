/**
 * @module Contract checks every built-in condition and module input must pass: `start` resolves
 * once the first value is published, `stop` (or the context's abort) releases every blocking
 * query, stopping twice is harmless, and module inputs never trigger.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConditionFactory, InputSource, ModuleInputFactory } from "../../../core/plugin-api/mod.ts";
import { catalogServicesConditionFactory } from "../../../plugins/condition-catalog-services/mod.ts";
import { consulKvConditionFactory } from "../../../plugins/condition-consul-kv/mod.ts";
import { servicesConditionFactory } from "../../../plugins/condition-services/mod.ts";
import { consulKvModuleInputFactory } from "../../../plugins/module-input-consul-kv/mod.ts";
import { servicesModuleInputFactory } from "../../../plugins/module-input-services/mod.ts";
import { type ConsulHarness, startConsulHarness } from "./helpers/consul-harness.ts";
import { eventually, recordingContext } from "./helpers/recording-context.ts";

let consul: ConsulHarness;
beforeAll(async () => {
  consul = await startConsulHarness();
  await consul.register({ node: "n1", id: "conf-web", name: "conf-web" });
  await consul.kvPut("conf/key", "v");
});
afterAll(async () => {
  await consul?.close();
});

interface Case {
  readonly label: string;
  readonly factory: ConditionFactory | ModuleInputFactory;
  readonly config: Record<string, unknown>;
  readonly condition: boolean;
  /** A Consul change this source renders; returns its undo. */
  readonly change: () => Promise<() => Promise<void>>;
}

const newInstance = async () => {
  await consul.register({ node: "n2", id: "conf-web-2", name: "conf-web" });
  return () => consul.deregister("n2", "conf-web-2");
};
const newService = async () => {
  await consul.register({ node: "n2", id: "conf-db", name: "conf-db" });
  return () => consul.deregister("n2", "conf-db");
};
const newValue = async () => {
  await consul.kvPut("conf/key", "changed");
  return () => consul.kvPut("conf/key", "v");
};

const cases: Case[] = [
  { label: "condition services (names)", factory: servicesConditionFactory, config: { names: ["conf-web", "conf-none"] }, condition: true, change: newInstance },
  { label: "condition services (regexp)", factory: servicesConditionFactory, config: { regexp: "^conf-" }, condition: true, change: newService },
  { label: "condition catalog-services", factory: catalogServicesConditionFactory, config: { regexp: "^conf-" }, condition: true, change: newService },
  { label: "condition consul-kv", factory: consulKvConditionFactory, config: { path: "conf/key" }, condition: true, change: newValue },
  { label: "condition consul-kv (recurse)", factory: consulKvConditionFactory, config: { path: "conf", recurse: true }, condition: true, change: newValue },
  { label: "module_input services", factory: servicesModuleInputFactory, config: { names: ["conf-web"] }, condition: false, change: newInstance },
  { label: "module_input consul-kv", factory: consulKvModuleInputFactory, config: { path: "conf/key" }, condition: false, change: newValue },
];

describe.each(cases)("$label", ({ factory, config, condition, change }) => {
  it("resolves start with its first value published and no trigger", async () => {
    const ctx = recordingContext(consul.watcher);
    const source = factory.create(config, "conformance");
    await source.start(ctx);
    expect(ctx.published).toHaveLength(1);
    expect(ctx.published[0]!.variable).toBe(source.variable);
    expect(ctx.triggers).toEqual([]);
    source.stop();
  });

  it("releases every blocking query on stop, and stop is idempotent", async () => {
    const before = consul.watcher.stats();
    const source = factory.create(config, "conformance");
    await source.start(recordingContext(consul.watcher));
    expect(consul.watcher.stats().subscribers).toBeGreaterThan(before.subscribers);
    source.stop();
    source.stop();
    expect(consul.watcher.stats()).toEqual(before);
  });

  it("stops when the context aborts, even before the first value", async () => {
    const before = consul.watcher.stats();
    const ctx = recordingContext(consul.watcher);
    const source: InputSource = factory.create(config, "conformance");
    const started = source.start(ctx);
    ctx.abort.abort();
    await started;
    expect(consul.watcher.stats()).toEqual(before);
    expect(ctx.triggers).toEqual([]);
  });

  it(condition ? "is a condition that can trigger" : "never triggers", async () => {
    const ctx = recordingContext(consul.watcher);
    const source = factory.create(config, "conformance");
    await source.start(ctx);
    const undo = await change();
    await eventually(() => ctx.published.length >= 2, "the change to publish");
    expect(ctx.triggers.length > 0).toBe(condition);
    source.stop();
    await undo();
  });
});
