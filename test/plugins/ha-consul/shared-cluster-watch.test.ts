/**
 * The shared cluster mode reads only what ownership needs (issue 16, item 2 follow-up; beyond CTS):
 * members/ and owners/ (watched) and the task names under tasks/ (read on their changes), never the
 * run records, events or a task's stored state, so a task run on any instance wakes no member.
 * Members in-process with real Consul clients behind a recording proxy, the embedded Consul over
 * real HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConsulTaskStore } from "../../../plugins/ha-consul/src/consul-task-store.ts";
import { rendezvousOwner } from "../../../plugins/ha-consul/src/rendezvous.ts";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { layoutOf, startHaConsul, until } from "../../../harness/ha-consul/ha-harness.ts";
import { type RecordedExchange, type RecordingProxy, startRecordingProxy } from "../../../harness/ha-consul/recording-proxy.ts";
import { settledOwners, taskOwners } from "../../../harness/ha-consul/shared-cluster-support.ts";
import { type SharedMember, startSharedMember, stopSharedMember } from "./shared-member.ts";

let consul: TestConsulDevServer;
let proxy: RecordingProxy;
const members: SharedMember[] = [];

beforeAll(async () => {
  consul = await startHaConsul();
  proxy = await startRecordingProxy({ hostname: "127.0.0.1", port: consul.port });
});
afterEach(async () => {
  await Promise.all(members.splice(0).map(stopSharedMember));
});
afterAll(async () => {
  await proxy?.close();
  await consul?.stop();
});

async function put(key: string, value: unknown): Promise<void> {
  const response = await fetch(`${consul.url}/v1/kv/${key}`, { method: "PUT", body: JSON.stringify(value) });
  if (!response.ok) throw new Error(`PUT ${key}: ${response.status}`);
}

/** The keys an answer carries, and whether it carried any value of a key under tasks/. */
function keysOf(exchange: RecordedExchange, tasksPrefix: string): { keys: string[]; taskValues: boolean } {
  if (exchange.status !== 200 || exchange.body === "") return { keys: [], taskValues: false };
  const body = JSON.parse(exchange.body) as (string | { Key: string; Value: string | null })[];
  const keys = body.map((item) => (typeof item === "string" ? item : item.Key));
  const taskValues = body.some((item) => typeof item !== "string" && item.Key.startsWith(tasksPrefix));
  return { keys, taskValues };
}

describe("shared cluster mode: what the ownership reads", () => {
  it("a task run's state, event and run record writes wake no member and are never sent to one", async () => {
    const cluster = "watch-runs";
    const layout = layoutOf(cluster);
    // c, joining below, ranks first for t9 only: its join moves one task, so the members must read.
    // (With t5 instead, c took nothing, the ownership was settled at once and no read was sure to be seen.)
    const names = ["t0", "t1", "t2", "t3", "t4", "t9"];
    expect(names.filter((name) => rendezvousOwner(name, ["a", "b", "c"]) === "c")).toEqual(["t9"]);
    for (const name of names) await put(layout.taskKey(name), { config: { name } });
    members.push(await startSharedMember(proxy.address, cluster, "a"), await startSharedMember(proxy.address, cluster, "b"));
    await until("every task owned by its rendezvous owner", async () =>
      settledOwners(await taskOwners(consul.url, cluster), names, ["a", "b"]) ? true : undefined);
    const from = proxy.exchanges.length;
    const rootIndex = async () => Number((await fetch(`${consul.url}/v1/kv/${layout.root}/?keys=true`)).headers.get("x-consul-index"));
    const beforeRuns = await rootIndex();

    // What each run writes (run-state.ts, task-runtime.ts, consul-run-history.ts).
    for (let run = 0; run < 24; run++) {
      const task = names[run % names.length]!;
      const id = `r${String(run).padStart(4, "0")}`;
      await put(layout.taskKey(task), { config: { name: task }, lastRun: { fingerprint: id, state: "started" } });
      await put(layout.eventsKey(task), [{ id, task_name: task, success: true }]);
      await put(layout.runKey(task, id), { id, task, status: "succeeded" });
      await put(layout.taskKey(task), { config: { name: task }, lastRun: { fingerprint: id, state: "succeeded" } });
    }
    const afterRuns = await rootIndex();

    // Then a change ownership follows: a third member joins, and takes what it ranks first for.
    members.push(await startSharedMember(proxy.address, cluster, "c"));
    await until("every task owned by its rendezvous owner among a, b, c", async () =>
      settledOwners(await taskOwners(consul.url, cluster), names, ["a", "b", "c"]) ? true : undefined);

    const reads = proxy.exchanges.slice(from).filter((exchange) => exchange.method === "GET" && exchange.path.startsWith("/v1/kv/"));
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      const { keys, taskValues } = keysOf(read, layout.tasksPrefix);
      expect(keys.filter((key) => !(key.startsWith(layout.membersPrefix) || key.startsWith(layout.ownersPrefix) || key.startsWith(layout.tasksPrefix))))
        .toEqual([]);
      // A task's config and state stay out of the ownership reads (names only).
      expect(taskValues).toBe(false);
    }
    // A read woken by the runs would carry an index of one of their writes (reads answered late for
    // the settling before them carry older ones, those for c's join newer).
    const woken = reads.filter((read) => Number(read.query.get("index") ?? 0) > 0);
    expect(woken.filter((read) => read.index > beforeRuns && read.index <= afterRuns)).toEqual([]);
  });

  it("a deleted task is let go by its owner: deleting it deletes its owners/ key too, which the members follow", async () => {
    const cluster = "watch-delete";
    const layout = layoutOf(cluster);
    const names = ["t0", "t1", "t2", "t3"];
    for (const name of names) await put(layout.taskKey(name), { config: { name } });
    members.push(await startSharedMember(consul.address, cluster, "a"), await startSharedMember(consul.address, cluster, "b"));
    await until("every task owned by its rendezvous owner", async () =>
      settledOwners(await taskOwners(consul.url, cluster), names, ["a", "b"]) ? true : undefined);
    const owner = members.find((member) => member.id === rendezvousOwner("t0", ["a", "b"]))!;
    await until("t0 owned in the owner's view", () => (owner.shared.ownership.owns("t0") ? true : undefined));
    // A lock written after the settling, seen by both: their watches have delivered everything before it.
    const marker = ((await (await fetch(`${consul.url}/v1/session/create`, { method: "PUT", body: "{}" })).json()) as { ID: string }).ID;
    await fetch(`${consul.url}/v1/kv/${layout.ownersPrefix}marker?acquire=${marker}`, { method: "PUT", body: JSON.stringify({ id: "x" }) });
    await until("the marker seen by both", () => (members.every((member) => member.shared.ownership.ownerOf("marker")) ? true : undefined));

    await new ConsulTaskStore(owner.client, layout).deleteTask("t0");
    await until("t0 let go", () => (owner.shared.ownership.owns("t0") ? undefined : true));
    const owners = await taskOwners(consul.url, cluster);
    expect(owners.has("t0")).toBe(false);
    owners.delete("marker");
    expect(names.slice(1).every((name) => owners.get(name) === rendezvousOwner(name, ["a", "b"]))).toBe(true);
  });

  it("a task stored outside the seeding (by hand, a -once run) is found by the periodic re-read of the names", async () => {
    const cluster = "watch-refresh";
    const layout = layoutOf(cluster);
    await put(layout.taskKey("t0"), { config: { name: "t0" } });
    const options = { taskNamesRefreshMs: 300 };
    members.push(await startSharedMember(consul.address, cluster, "a", options), await startSharedMember(consul.address, cluster, "b", options));
    await until("t0 owned", async () => ((await taskOwners(consul.url, cluster)).get("t0") ? true : undefined));
    await put(layout.taskKey("t-late"), { config: { name: "t-late" } });
    await until("t-late owned by its rendezvous owner", async () =>
      (await taskOwners(consul.url, cluster)).get("t-late") === rendezvousOwner("t-late", ["a", "b"]) ? true : undefined);
  });
});
