/**
 * Leader mode, a restart under the same instance id (issue 16, item 3 follow-up): a process killed
 * with -9 and restarted within one check interval re-registers its check before the check runs
 * against the dead process, so the dead run's check-bound session stays valid and would hold the
 * leader lock until its TTL. The restarted instance destroys the sessions named after its own id
 * (and only those) before it campaigns. In-process LeaderElection against the embedded Consul over
 * real HTTP; the dead run's sessions are made as a killed process leaves them (the lock held, a
 * standby beside it). Session TTL 60 s: taking the lock within the 10 s polling bound proves the
 * session was destroyed, not expired.
 *
 * CTS behaviour kept: the lock key and its value, the session's TTL, behavior "delete", lock-delay 0.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../helpers/consul-dev-server.ts";
import { layoutOf, type Member, startHaConsul, startMember, stopMember, until, consulRequest } from "./ha-harness.ts";

const TTL_MS = 60_000;
let consul: TestConsulDevServer;
const members: Member[] = [];

beforeAll(async () => {
  consul = await startHaConsul();
});
afterEach(async () => {
  await Promise.all(members.splice(0).map(stopMember));
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
  it("destroys the dead run's sessions and takes the lock at once, not at the TTL; another instance's session is left alone", async () => {
    const cluster = "restart-same-id";
    const id = `${cluster}-a`;
    const held = await createSession(`cts-runtime ${cluster} ${id}`);
    const standby = await createSession(`cts-runtime ${cluster} ${id}`);
    const other = await createSession(`cts-runtime ${cluster} ${cluster}-b`);
    expect(await call("PUT", `/v1/kv/${layoutOf(cluster).leaderKey}?acquire=${held}`, { id })).toBe(true);

    const a = await startMember(consul, cluster, id, "", { ttlMs: TTL_MS });
    members.push(a);
    await until("the restarted instance leads", () => (a.election.isLeader() ? true : undefined));
    expect(await sessionExists(held)).toBe(false);
    expect(await sessionExists(standby)).toBe(false);
    expect(await sessionExists(other)).toBe(true);
    expect(a.logger.text()).toMatch(/destroying the session of this instance's previous run/);
  });
});
