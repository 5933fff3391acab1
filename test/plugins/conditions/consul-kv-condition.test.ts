/**
 * @module The consul-kv condition and module input against the embedded Consul server: triggers
 * on create, update and delete only (§4.2); `consul_kv` as §5.3 describes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, latest, recordingContext } from "../../../core/plugin-testkit/mod.ts";
import {
  consulKvConditionFactory, consulKvModuleInputFactory, consulKvQuery,
} from "../../../plugins/consul-inputs/mod.ts";
import { type ConsulHarness, startConsulHarness } from "./helpers/consul-harness.ts";
import { conditionSource, moduleInputSource } from "./helpers/decoded-source.ts";

let consul: ConsulHarness;
beforeAll(async () => {
  consul = await startConsulHarness();
});
afterAll(async () => {
  await consul?.close();
});

type Kv = Record<string, string>;
const kv = (ctx: ReturnType<typeof recordingContext>) => latest(ctx, "consul_kv") as Kv | undefined;

describe("condition \"consul-kv\" (single key)", () => {
  it("starts empty for a missing key and triggers on create, update and delete, not on a same-value write", async () => {
    const ctx = recordingContext(consul.watcher);
    const source = conditionSource(consulKvConditionFactory, { type: "consul-kv", path: "cfg/flag" }, "kv-task");
    await source.start(ctx);
    expect(kv(ctx)).toEqual({});

    await consul.kvPut("cfg/flag", "on");
    await eventually(() => kv(ctx)?.["cfg/flag"] === "on", "the created key");
    expect(ctx.triggers).toHaveLength(1);

    // The same value again, then a real change: only the change may count.
    await consul.kvPut("cfg/flag", "on");
    await consul.kvPut("cfg/flag", "off");
    await eventually(() => kv(ctx)?.["cfg/flag"] === "off", "the updated key");
    expect(ctx.published.map((p) => p.value)).toEqual([{}, { "cfg/flag": "on" }, { "cfg/flag": "off" }]);
    expect(ctx.triggers).toHaveLength(2);

    // Flags change the entry (and Consul's index) but not the rendered value.
    await consul.kvPut("cfg/flag", "off", "?flags=42");
    const query = consulKvQuery({ path: "cfg/flag", recurse: false, datacenter: "", namespace: "" });
    await consul.observe(query, (r) => (r.data as { Flags: number }[])[0]?.Flags === 42, "the flags write");
    expect(ctx.triggers).toHaveLength(2);
    expect(ctx.published).toHaveLength(3);

    // A sibling key is not watched.
    await consul.kvPut("cfg/flag-other", "x");
    await consul.kvDelete("cfg/flag");
    await eventually(() => Object.keys(kv(ctx) ?? { x: 1 }).length === 0, "the deleted key");
    expect(ctx.triggers).toHaveLength(3);
    expect(ctx.published).toHaveLength(4);
    source.stop();
  });
});

describe("condition \"consul-kv\" (recurse)", () => {
  it("renders every key under the prefix and triggers on each change of them", async () => {
    await consul.kvPut("app/db/host", "db1");
    await consul.kvPut("app/db/port", "5432");
    const ctx = recordingContext(consul.watcher);
    const source = conditionSource(consulKvConditionFactory, { path: "app/db", recurse: true }, "kv-tree");
    await source.start(ctx);
    expect(kv(ctx)).toEqual({ "app/db/host": "db1", "app/db/port": "5432" });

    await consul.kvPut("app/db/user", "ü-admin");
    await eventually(() => kv(ctx)?.["app/db/user"] === "ü-admin", "the new key");
    expect(Object.keys(kv(ctx)!)).toEqual(["app/db/host", "app/db/port", "app/db/user"]);
    expect(ctx.triggers).toHaveLength(1);

    await consul.kvPut("app/db/port", "5432");
    await consul.kvPut("app/db/host", "db2");
    await eventually(() => kv(ctx)?.["app/db/host"] === "db2", "the changed key");
    expect(ctx.triggers).toHaveLength(2);

    await consul.kvDelete("app/db/user");
    await eventually(() => !("app/db/user" in kv(ctx)!), "the deleted key");
    expect(ctx.triggers).toHaveLength(3);
    expect(ctx.published).toHaveLength(4);
    source.stop();
  });
});

describe("module_input \"consul-kv\"", () => {
  it("publishes changes and never triggers", async () => {
    const ctx = recordingContext(consul.watcher);
    const source = moduleInputSource(consulKvModuleInputFactory, { path: "mi/key" }, "t");
    await source.start(ctx);
    await consul.kvPut("mi/key", "1");
    await eventually(() => kv(ctx)?.["mi/key"] === "1", "the created key");
    await consul.kvDelete("mi/key");
    await eventually(() => Object.keys(kv(ctx) ?? { x: 1 }).length === 0, "the deleted key");
    expect(ctx.triggers).toEqual([]);
    source.stop();
  });
});
