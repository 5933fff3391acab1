/**
 * Leadership changes (what HA drives) with a switchable Leadership plugin and one TaskStore
 * shared by two kernels, against the embedded Consul server: allow-fail leader pass, skip by
 * stored input hash after failover, stepping down stops watchers and API mutations.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  definePlugin, defineService, leadershipToken, taskStoreToken, type Leadership, type TaskStore,
} from "../../../core/plugin-api/mod.ts";
import { MemoryTaskStore } from "../../../plugins/task-store-memory/mod.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { clearRecordingLog, recorded } from "../../../harness/driver-recording/mod.ts";
import { engineConfig, registerInstance, servicesTask, startEngine, waitFor, type Harness } from "../../../harness/task-engine/engine-harness.ts";

/** A Leadership whose state the test sets, as HA's election would. */
class SwitchLeadership implements Leadership {
  readonly instanceId: string;
  #leader: boolean;
  readonly #listeners = new Set<(leader: boolean) => void>();
  constructor(instanceId: string, leader: boolean) {
    this.instanceId = instanceId;
    this.#leader = leader;
  }
  isLeader(): boolean {
    return this.#leader;
  }
  subscribe(listener: (leader: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  leader() {
    return this.#leader ? { id: this.instanceId } : undefined;
  }
  set(leader: boolean): void {
    this.#leader = leader;
    for (const listener of [...this.#listeners]) listener(leader);
  }
}

function haPlugins(leadership: SwitchLeadership, store: TaskStore) {
  return {
    "leadership-standalone": definePlugin({
      id: "leadership-switch", kind: "service", deps: {},
      provides: [defineService({ token: leadershipToken, deps: {}, create: () => leadership })],
    }),
    "task-store-memory": definePlugin({
      id: "task-store-shared", kind: "store", deps: {},
      provides: [defineService({ token: taskStoreToken, deps: {}, create: () => store })],
    }),
  };
}

const haConfig = {
  high_availability: {
    cluster: { name: "c", storage: { parent_path: "cts/", namespace: "", session_ttl: 15_000 } },
    instance: { address: "" },
  },
};

type DevServer = Awaited<ReturnType<typeof startConsulDevServer>>;
let server: DevServer;
const harnesses: Harness[] = [];

beforeAll(async () => {
  server = await startConsulDevServer();
  await registerInstance(server.url, "ha", "ha-1");
});
afterAll(async () => {
  await server?.stop();
});
beforeEach(() => clearRecordingLog());
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.stop();
});

async function instance(
  id: string, leadership: SwitchLeadership, store: TaskStore, failTasks: string[] = [], applyDelayMs = 0,
): Promise<Harness> {
  const tasks = [servicesTask("ha-a", ["ha"]), servicesTask("ha-b", ["ha"])];
  const harness = await startEngine({
    config: engineConfig(server.address, tasks, { id, ...haConfig }),
    recording: { fail_tasks: failTasks, apply_delay_ms: applyDelayMs },
    replace: haPlugins(leadership, store),
  });
  harnesses.push(harness);
  return harness;
}

describe("leadership", () => {
  it("a follower runs nothing and refuses mutations until it leads", async () => {
    const leadership = new SwitchLeadership("cts-f", false);
    const follower = await instance("cts-f", leadership, new MemoryTaskStore());
    expect(follower.manager.list()).toEqual([]);
    expect(follower.watcher.stats().open).toBe(0);
    await expect(follower.manager.create(servicesTask("x", ["ha"]))).rejects.toMatchObject({ code: "CTS_ERR_NOT_LEADER" });
    leadership.set(true);
    await waitFor(() => recorded("apply", "ha-b")[0], "leader pass");
    await follower.manager.idle();
    expect(follower.manager.get("ha-a")!.events[0]!.trigger).toEqual({ kind: "leader" });
  });

  it("a new leader knows every stored task at once, before its pass reaches them", async () => {
    const leadership = new SwitchLeadership("cts-k", false);
    const leader = await instance("cts-k", leadership, new MemoryTaskStore(), [], 800);
    leadership.set(true);
    await waitFor(() => leader.manager.get("ha-a")?.running, "first task of the pass applying");
    // The pass has not reached ha-b yet, but the API must not answer 404 for it.
    expect(recorded("apply", "ha-b")).toEqual([]);
    expect(leader.manager.get("ha-b")).toMatchObject({ config: { name: "ha-b" }, running: false });
    await leader.manager.idle();
  });

  it("a leader pass logs failures and keeps going (allow-fail), without asking to exit", async () => {
    const leadership = new SwitchLeadership("cts-a", true);
    const leader = await instance("cts-a", leadership, new MemoryTaskStore(), ["ha-a"]);
    await waitFor(() => recorded("apply", "ha-b")[0], "second task ran despite the first failing");
    await leader.manager.idle();
    expect(leader.manager.get("ha-a")!.status).toBe("errored");
    expect(leader.manager.get("ha-b")!.status).toBe("successful");
    expect(leader.exits).toEqual([]);
  });

  it("after failover the new leader skips applies whose inputs equal the stored hash, then watches", async () => {
    const store = new MemoryTaskStore();
    const first = new SwitchLeadership("cts-a", true);
    const a = await instance("cts-a", first, store);
    await waitFor(() => recorded("apply", "ha-b")[0], "first leader's pass");
    await a.manager.idle();
    await a.manager.create(servicesTask("ha-api", ["ha"]), "now");
    expect((await store.getTask("ha-a"))?.lastRun).toMatchObject({ fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), state: "succeeded" });

    first.set(false);
    expect(a.watcher.stats().open).toBe(0);
    expect(a.manager.list()).toEqual([]);
    await expect(a.manager.runNow("ha-a", { kind: "api" })).rejects.toMatchObject({ code: "CTS_ERR_NOT_LEADER" });

    const second = new SwitchLeadership("cts-b", false);
    const b = await instance("cts-b", second, store);
    second.set(true);
    await waitFor(() => b.manager.get("ha-api")?.events.length, "API-created task loaded from the store and run");
    await b.manager.idle();
    expect(b.manager.list().map((task) => task.config.name)).toEqual(["ha-a", "ha-b", "ha-api"]);
    for (const name of ["ha-a", "ha-b", "ha-api"]) {
      expect(b.manager.get(name)!.events[0]).toMatchObject({ skipped: true, success: true, instance_id: "cts-b", trigger: { kind: "leader" } });
    }
    expect(recorded("apply").filter((entry) => entry.instance === "cts-b")).toEqual([]);

    await registerInstance(server.url, "ha", "ha-2");
    await waitFor(() => recorded("apply", "ha-api").find((entry) => entry.instance === "cts-b"), "new leader applies a change");
  });

  it("stepping down lets a running apply finish, then starts nothing more", async () => {
    const leadership = new SwitchLeadership("cts-s", true);
    const leader = await instance("cts-s", leadership, new MemoryTaskStore(), [], 800);
    await waitFor(() => recorded("apply", "ha-b")[0], "leader pass");
    await leader.manager.idle();
    const running = leader.manager.runNow("ha-a", { kind: "api" });
    await waitFor(() => leader.manager.get("ha-a")?.running, "apply in progress");
    leadership.set(false);
    expect(leader.watcher.stats().open).toBe(0);
    expect((await running)?.success).toBe(true);
    const applied = recorded("apply").length;
    await registerInstance(server.url, "ha", "ha-late");
    await leader.manager.idle();
    expect(recorded("apply").length).toBe(applied);
  });
});
