/**
 * ConsulTaskStore over real HTTP against the embedded Consul server: the shared TaskStore conformance
 * suite, the documented KV layout, concurrent writers (CAS), and persistence across a server restart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClosableConsulClient } from "../../../plugins/consul-client/mod.ts";
import { ConsulTaskStore } from "../../../plugins/ha-consul/src/consul-task-store.ts";
import { kvLayoutOf } from "../../../plugins/ha-consul/src/kv-layout.ts";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { testClient } from "../../../harness/consul-client/client-options.ts";
import { describeTaskStoreConformance, sampleEvent, sampleTask } from "../../../core/plugin-testkit/mod.ts";
import { haConfig, layoutOf, startHaConsul } from "../../../harness/ha-consul/ha-harness.ts";

let consul: TestConsulDevServer;
let client: ClosableConsulClient;
let clusters = 0;

beforeAll(async () => {
  consul = await startHaConsul();
  client = (await testClient(consul.address)).client;
});
afterAll(async () => {
  client?.close();
  await consul?.stop();
});

/** Each store gets its own cluster, so it starts empty. */
function freshStore(): ConsulTaskStore {
  return new ConsulTaskStore(client, layoutOf(`store-${++clusters}`));
}

describeTaskStoreConformance("consul", async () => freshStore());

describe("ConsulTaskStore specifics", () => {
  it("lays keys out as the README documents", () => {
    const layout = kvLayoutOf(haConfig("cluster-a"));
    expect(layout.leaderKey).toBe("consul-terraform-sync/cluster-a/leader");
    expect(layout.taskKey("web")).toBe("consul-terraform-sync/cluster-a/tasks/web");
    expect(layout.eventsKey("web")).toBe("consul-terraform-sync/cluster-a/events/web");
    expect(layout.runKey("web", "1796290833123-3f9a1c2e")).toBe("consul-terraform-sync/cluster-a/runs/web/1796290833123-3f9a1c2e");
    expect(kvLayoutOf(haConfig("c", { parentPath: "/custom/path/" })).leaderKey).toBe("custom/path/c/leader");
    expect(kvLayoutOf(haConfig("c", { parentPath: "" })).taskKey("t")).toBe("c/tasks/t");
  });

  it("writes JSON a person can read in Consul KV", async () => {
    const store = new ConsulTaskStore(client, layoutOf("readable"));
    await store.putTask({ config: sampleTask("web"), lastAppliedInputHash: "h1" });
    const pair = await client.kvGet("consul-terraform-sync/readable/tasks/web");
    expect(JSON.parse(pair!.value)).toEqual({ config: sampleTask("web"), lastAppliedInputHash: "h1" });
  });

  it("lists in creation order, not key order", async () => {
    const store = freshStore();
    for (const name of ["zeta", "alpha", "mid"]) await store.putTask({ config: sampleTask(name) });
    expect((await store.listTasks()).map((task) => task.config.name)).toEqual(["zeta", "alpha", "mid"]);
  });

  it("loses no event when two instances add events at once (CAS)", async () => {
    const layout = layoutOf(`cas-${++clusters}`);
    const other = (await testClient(consul.address)).client;
    try {
      const a = new ConsulTaskStore(client, layout);
      const b = new ConsulTaskStore(other, layout);
      await a.putTask({ config: sampleTask("t") });
      await Promise.all(Array.from({ length: 8 }, (_, n) => (n % 2 === 0 ? a : b).addEvent(sampleEvent("t", n), 20)));
      const ids = (await a.listEvents("t")).map((event) => event.id).sort();
      expect(ids).toEqual(Array.from({ length: 8 }, (_, n) => `t-event-${n}`).sort());
    } finally {
      other.close();
    }
  });

  it("keeps clusters apart", async () => {
    const one = new ConsulTaskStore(client, layoutOf("apart-1"));
    const two = new ConsulTaskStore(client, layoutOf("apart-2"));
    await one.putTask({ config: sampleTask("only-in-one") });
    await one.addEvent(sampleEvent("only-in-one", 1), 5);
    expect(await two.listTasks()).toEqual([]);
    await two.reset();
    expect((await one.listTasks()).map((task) => task.config.name)).toEqual(["only-in-one"]);
    expect(await one.listEvents("only-in-one")).toHaveLength(1);
  });

  it("survives a Consul restart (state lives in Consul, not in the instance)", async () => {
    const layout = layoutOf("durable");
    const store = new ConsulTaskStore(client, layout);
    await store.putTask({ config: sampleTask("durable"), lastAppliedInputHash: "abc" });
    await store.addEvent(sampleEvent("durable", 1), 5);
    await consul.restart();
    const reread = new ConsulTaskStore(client, layout);
    expect(await reread.getTask("durable")).toEqual({ config: sampleTask("durable"), lastAppliedInputHash: "abc" });
    expect((await reread.listEvents("durable")).map((event) => event.id)).toEqual(["durable-event-1"]);
  });
});
