/**
 * Leader mode, a restart under the same instance id (issue 16, item 3 follow-up): a process killed
 * with -9 and restarted within one check interval re-registers its check before the check runs
 * against the dead process, so the dead run's check-bound session stays valid and would hold the
 * leader lock until its TTL. The restarted instance destroys the sessions named after its own id
 * in its own cluster (and only those: not another instance's, nor those of a cluster of the same
 * name under another parent_path) before it campaigns. In-process LeaderElection against the embedded Consul over
 * real HTTP; the dead run's sessions are made as a killed process leaves them (the lock held, a
 * standby beside it). Session TTL 60 s: taking the lock within the 10 s polling bound proves the
 * session was destroyed, not expired.
 *
 * CTS behaviour kept: the lock key and its value, the session's TTL, behavior "delete", lock-delay 0.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { layoutOf, type Member, startHaConsul, startMember, stopMember, until, consulRequest } from "../../../harness/ha-consul/ha-harness.ts";
import { type SharedMember, startSharedMember, stopSharedMember } from "./shared-member.ts";

const TTL_MS = 60_000;
let consul: TestConsulDevServer;
const members: Member[] = [];
const sharedMembers: SharedMember[] = [];

beforeAll(async () => {
  consul = await startHaConsul();
});
afterEach(async () => {
  await Promise.all(members.splice(0).map(stopMember));
  await Promise.all(sharedMembers.splice(0).map(stopSharedMember));
});
afterAll(async () => {
  await consul?.stop();
});

function call(method: string, path: string, body?: unknown): Promise<unknown> {
  return consulRequest(consul, method, path, body);
}

async function createSession(name: string): Promise<string> {
  return ((await call("PUT", "/v1/session/create", { Name: name, TTL: "60s", Behavior: "delete", LockDelay: "0s" })) as { ID: string }).ID;
}

async function sessionExists(id: string): Promise<boolean> {
  return ((await call("GET", `/v1/session/info/${id}`)) as unknown[] | null ?? []).length > 0;
}

describe("leader mode: a restart under the same instance id", () => {
  it("destroys the dead run's sessions and takes the lock at once, not at the TTL; other instances' sessions are left alone", async () => {
    const cluster = "restart-same-id";
    const id = `${cluster}-a`;
    const root = layoutOf(cluster).root;
    const held = await createSession(`cts-runtime ${root} ${id}`);
    const standby = await createSession(`cts-runtime ${root} ${id}`);
    const other = await createSession(`cts-runtime ${root} ${cluster}-b`);
    const sameIdElsewhere = await createSession(`cts-runtime another-parent/${cluster} ${id}`);
    expect(await call("PUT", `/v1/kv/${layoutOf(cluster).leaderKey}?acquire=${held}`, { id })).toBe(true);

    const a = await startMember(consul, cluster, id, "", { ttlMs: TTL_MS });
    members.push(a);
    await until("the restarted instance leads", () => (a.election.isLeader() ? true : undefined));
    expect(await sessionExists(held)).toBe(false);
    expect(await sessionExists(standby)).toBe(false);
    expect(await sessionExists(other)).toBe(true);
    expect(await sessionExists(sameIdElsewhere)).toBe(true);
    expect(a.logger.text()).toMatch(/destroying the session of this instance's previous run/);
  });
});

// Shared mode finds its previous life by the member key its session holds (SharedCluster.#join).
describe("shared mode: a restart under the same instance id", () => {
  it("destroys the dead run's session, which held its member key and its task's lock, and joins at once", async () => {
    const cluster = "restart-same-id-shared";
    const id = `${cluster}-a`;
    const layout = layoutOf(cluster);
    const held = await createSession(`cts-runtime ${layout.root} ${id}`);
    expect(await call("PUT", `/v1/kv/${layout.membersPrefix}${id}?acquire=${held}`, { id })).toBe(true);
    expect(await call("PUT", `/v1/kv/${layout.tasksPrefix}web`, { config: { name: "web" } })).toBe(true);
    expect(await call("PUT", `/v1/kv/${layout.ownersPrefix}web?acquire=${held}`, { id })).toBe(true);

    const a = await startSharedMember(consul.address, cluster, id, { ttlMs: TTL_MS });
    sharedMembers.push(a);
    await until("the restarted instance owns its task again", async () => {
      const response = await fetch(`${consul.url}/v1/kv/${layout.ownersPrefix}web`);
      const [owner] = response.ok ? (await response.json()) as { Session?: string }[] : [];
      return owner?.Session && owner.Session !== held ? true : undefined;
    });
    expect(await sessionExists(held)).toBe(false);
    expect(a.logger.text()).toMatch(/destroying the session of this instance's previous run/);
  });
});
