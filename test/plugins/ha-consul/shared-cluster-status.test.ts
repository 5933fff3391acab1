/**
 * `/v1/status/cluster` in the shared cluster mode (issue 16, item 2 follow-up; beyond CTS): the
 * `task_owners` it answers on any member are the owners Consul holds, "" only for a task no session
 * holds. In-process members with real Consul clients, the handler the plugin mounts, the embedded
 * Consul over real HTTP.
 *
 * Found: moving an instance's locks onto its check-bound session is atomic per key (one txn: unlock
 * with the old session, then lock with the new, all or nothing), so no read of Consul ever shows such
 * a task free. What answered "" (or a previous owner) was the member's own view, which trails Consul
 * by a blocking read and a reconcile (after joining, after a rebalance); the status now reads the
 * owners from Consul.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CtsConfig } from "../../../core/plugin-api/mod.ts";
import { testConfig } from "../../../core/plugin-testkit/mod.ts";
import { createClusterStatusHandler } from "../../../plugins/ha-consul/src/cluster-status.ts";
import { ConsulTaskStore } from "../../../plugins/ha-consul/src/consul-task-store.ts";
import { rendezvousOwner } from "../../../plugins/ha-consul/src/rendezvous.ts";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { haConfig, layoutOf, startHaConsul, until, consulRequest } from "../../../harness/ha-consul/ha-harness.ts";
import { type RecordingProxy, startRecordingProxy } from "../../../harness/ha-consul/recording-proxy.ts";
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
  proxy.holdBlocking(false);
  await Promise.all(members.splice(0).map(stopSharedMember));
});
afterAll(async () => {
  await proxy?.close();
  await consul?.stop();
});

function call(method: string, path: string, body?: unknown): Promise<unknown> {
  return consulRequest(consul, method, path, body);
}

/** `task_owners` as the plugin's handler answers it on `member`. */
async function statusOwners(member: SharedMember, cluster: string): Promise<Record<string, string>> {
  const base = testConfig({ consulAddress: consul.address });
  const config: CtsConfig = { ...base, id: member.id, high_availability: haConfig(cluster) };
  const store = new ConsulTaskStore(member.client, layoutOf(cluster));
  const handler = createClusterStatusHandler(member.client, config, member.shared, store, () => member.shared.readOwners());
  const response = await handler(new Request("http://127.0.0.1/v1/status/cluster"));
  return ((await response.json()) as { task_owners: Record<string, string> }).task_owners;
}

function seed(cluster: string, names: readonly string[]): Promise<unknown[]> {
  return Promise.all(names.map((name) => call("PUT", `/v1/kv/${layoutOf(cluster).taskKey(name)}`, { config: { name } })));
}

describe("shared cluster mode: the task owners the cluster status answers", () => {
  it("are Consul's on a member whose own view has not caught up with a rebalance", async () => {
    const cluster = "status-lag";
    const names = Array.from({ length: 24 }, (_, i) => `t${String(i).padStart(2, "0")}`);
    await seed(cluster, names);
    members.push(await startSharedMember(consul.address, cluster, "a"), await startSharedMember(proxy.address, cluster, "b"));
    await until("a and b settled", async () => (settledOwners(await taskOwners(consul.url, cluster), names, ["a", "b"]) ? true : undefined));
    const b = members[1]!;
    await until("b's view settled", () => (names.every((name) => b.shared.ownership.ownerOf(name)) ? true : undefined));

    // b's watches stop delivering; c joins and takes from a what it ranks first for.
    proxy.holdBlocking(true);
    members.push(await startSharedMember(consul.address, cluster, "c"));
    const owners = await until("a's tasks that rank c first held by c", async () => {
      const current = await taskOwners(consul.url, cluster);
      const moved = names.filter((name) => rendezvousOwner(name, ["a", "b", "c"]) === "c" && rendezvousOwner(name, ["a", "b"]) === "a");
      return moved.length > 0 && moved.every((name) => current.get(name) === "c") ? current : undefined;
    });
    expect(await statusOwners(b, cluster)).toEqual(Object.fromEntries(names.map((name) => [name, owners.get(name) ?? ""])));
  });

  // Pins the atomic move (it held before this change too): a txn that released before it locked, or
  // a status read between two txns, would show "" here.
  it("never answer \"\" on any member while the members move their locks onto their check-bound sessions", async () => {
    const cluster = "status-move";
    const names = Array.from({ length: 120 }, (_, i) => `t${String(i).padStart(3, "0")}`);
    await seed(cluster, names);
    const ids = ["a", "b", "c"];
    for (const id of ids) {
      const checkId = `${cluster}-${id}-health`;
      await call("PUT", "/v1/agent/service/register", { ID: `${cluster}-${id}`, Name: "cts", Check: { CheckID: checkId, TTL: "10m", Status: "critical" } });
      members.push(await startSharedMember(consul.address, cluster, id, { checkId }));
    }
    await until("every task owned by its rendezvous owner", async () =>
      settledOwners(await taskOwners(consul.url, cluster), names, ids) ? true : undefined);
    // Only the move is under test here: each member's own view has caught up with the settling.
    await until("every member's view names every owner", () =>
      members.every((member) => names.every((name) => member.shared.ownership.ownerOf(name))) ? true : undefined);

    const unowned = new Set<string>();
    let polling = true;
    let polls = 0;
    const poll = (async () => {
      while (polling) {
        const answers = await Promise.all(members.map((member) => statusOwners(member, cluster)));
        answers.forEach((answer, i) => {
          for (const name of names) if (!answer[name]) unowned.add(`${members[i]!.id}: ${name}`);
        });
        polls++;
      }
    })();
    await Promise.all(ids.map((id) => call("PUT", `/v1/agent/check/pass/${cluster}-${id}-health`)));
    await until("every member's locks on its check-bound session", () =>
      members.every((member) => /session bound to the health check:/.test(member.logger.text())) ? true : undefined);
    const after = polls;
    await until("a few more polls", () => (polls > after + 3 ? true : undefined));
    polling = false;
    await poll;
    expect([...unowned]).toEqual([]);
  });
});
