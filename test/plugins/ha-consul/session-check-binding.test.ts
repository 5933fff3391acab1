/**
 * The HA session bound to the instance's own health check (issue 16, item 3), in-process against the
 * embedded Consul over real HTTP. The checks here are TTL checks set by hand through the agent API,
 * so a check's state changes exactly when the test says. Session TTL is 60 s: a lock that changes
 * hands within the 10 s polling bound can only have been released by the check, never by the TTL.
 *
 * Consul semantics pinned (reference/consul-api.md §2.6, §3.1): a session cannot bind a critical
 * check ("Check 'x' is in critical state"); a check going critical invalidates the sessions bound
 * to it and (Behavior "delete") deletes the locks they hold.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { layoutOf, type Member, startHaConsul, startMember, stopMember, until, consulRequest } from "../../../harness/ha-consul/ha-harness.ts";

const TTL_MS = 60_000;
let consul: TestConsulDevServer;
const members: Member[] = [];
let serial = 0;

beforeAll(async () => {
  consul = await startHaConsul();
});
afterEach(async () => {
  await Promise.all(members.splice(0).map(stopMember));
});
afterAll(async () => {
  await consul?.stop();
});

function agent(method: string, path: string, body?: unknown): Promise<unknown> {
  return consulRequest(consul, method, path, body);
}

/** Registers a service for `id` with a TTL check `<id>-health` in the given state. */
async function registerInstance(id: string, status: "passing" | "critical"): Promise<string> {
  const checkId = `${id}-health`;
  await agent("PUT", "/v1/agent/service/register", {
    ID: id, Name: "cts", Check: { CheckID: checkId, TTL: "10m", Status: status },
  });
  return checkId;
}

async function lockSession(cluster: string): Promise<string | undefined> {
  const response = await fetch(`${consul.url}/v1/kv/${layoutOf(cluster).leaderKey}`);
  if (response.status === 404) return undefined;
  return ((await response.json()) as { Session?: string }[])[0]?.Session;
}

/** The check ids the session is bound to, as Consul reports them. */
async function sessionChecks(session: string): Promise<string[]> {
  const info = (await (await fetch(`${consul.url}/v1/session/info/${session}`)).json()) as Record<string, unknown>[];
  const entry = info[0] ?? {};
  const service = ((entry["ServiceChecks"] as { ID: string }[] | null) ?? []).map((check) => check.ID);
  return [...((entry["NodeChecks"] as string[] | null) ?? []), ...((entry["Checks"] as string[] | null) ?? []), ...service];
}

async function member(cluster: string, id: string, checkId?: string, checkTrustedFrom?: number): Promise<Member> {
  const started = await startMember(consul, cluster, id, "", {
    ttlMs: TTL_MS, ...(checkId ? { checkId } : {}), ...(checkTrustedFrom !== undefined ? { checkTrustedFrom } : {}),
  });
  members.push(started);
  return started;
}

describe("HA session bound to the instance's health check", () => {
  it("does not bind a passing check left by a crashed predecessor until the check has had time to run against this process", async () => {
    const cluster = `stale-${++serial}`;
    // The predecessor's check still reads passing; its next run (against a dead process) will fail.
    const staleCheck = await registerInstance(`${cluster}-a`, "passing");
    const trustedFrom = Date.now() + 2_500;
    const a = await member(cluster, `${cluster}-a`, staleCheck, trustedFrom);
    await until("a leads", () => (a.election.isLeader() ? true : undefined));
    expect(await sessionChecks((await lockSession(cluster))!)).not.toContain(staleCheck);
    // The stale check fails before it is trusted: the TTL-only session, and a's leadership, survive it.
    await agent("PUT", `/v1/agent/check/fail/${staleCheck}`);
    await agent("PUT", `/v1/agent/check/pass/${staleCheck}`);
    await until("a's lock on a bound session once the check is trusted", async () =>
      ((await sessionChecks((await lockSession(cluster)) ?? "")).includes(staleCheck) ? true : undefined));
    expect(Date.now()).toBeGreaterThanOrEqual(trustedFrom);
    expect(a.changes).toEqual([true]);
  });

  it("starts TTL-only while the check is critical, binds it once the check passes, and a failing check hands the lock over long before the TTL", async () => {
    const cluster = `bind-${++serial}`;
    const aCheck = await registerInstance(`${cluster}-a`, "critical");
    const a = await member(cluster, `${cluster}-a`, aCheck);
    await until("a leads", () => (a.election.isLeader() ? true : undefined));
    expect(a.logger.text()).toMatch(/session not bound to the health check yet/);
    expect(await sessionChecks((await lockSession(cluster))!)).not.toContain(aCheck);

    await agent("PUT", `/v1/agent/check/pass/${aCheck}`);
    // The lock moves onto a bound session in one transaction: a keeps leading throughout.
    await until("a's lock on a bound session", async () => ((await sessionChecks((await lockSession(cluster)) ?? "")).includes(aCheck) ? true : undefined));
    expect(await sessionChecks((await lockSession(cluster))!)).toContain("serfHealth");
    expect(a.changes).toEqual([true]);

    const bCheck = await registerInstance(`${cluster}-b`, "passing");
    const b = await member(cluster, `${cluster}-b`, bCheck);
    await until("b follows a", () => (b.election.leader()?.id === a.id ? true : undefined));

    // a's host "dies" as Consul sees it: its check fails. b leads well before a 60 s TTL could end.
    await agent("PUT", `/v1/agent/check/fail/${aCheck}`);
    await until("b leads", () => (b.election.isLeader() && !a.election.isLeader() ? true : undefined));
    expect(a.changes).toEqual([true, false]);
    expect(await sessionChecks((await lockSession(cluster))!)).toContain(bCheck);
  });

  it("a graceful stop moves the lock back off the bound session, so the check failing while runs drain keeps the lock", async () => {
    const cluster = `bind-${++serial}`;
    const aCheck = await registerInstance(`${cluster}-a`, "passing");
    const a = await member(cluster, `${cluster}-a`, aCheck);
    await until("a leads", () => (a.election.isLeader() ? true : undefined));
    const bound = (await lockSession(cluster))!;
    expect(await sessionChecks(bound)).toContain(aCheck);

    a.election.prepareStop();
    await until("the lock on a TTL-only session", async () => {
      const session = await lockSession(cluster);
      return session && session !== bound && !(await sessionChecks(session)).includes(aCheck) ? session : undefined;
    });
    // What a stop does to the check: the API closes, the service is deregistered.
    await agent("PUT", `/v1/agent/check/fail/${aCheck}`);
    await agent("PUT", `/v1/agent/service/deregister/${cluster}-a`);
    expect(await lockSession(cluster)).toBeDefined();
    expect(a.election.isLeader()).toBe(true);
  });

  it("without a check to bind (registration off) the session is TTL-only and says so", async () => {
    const cluster = `bind-${++serial}`;
    const a = await member(cluster, `${cluster}-a`);
    await until("a leads", () => (a.election.isLeader() ? true : undefined));
    expect(a.logger.text()).toMatch(/session bound to its TTL only/);
    expect(await sessionChecks((await lockSession(cluster))!)).toEqual([]);
  });
});
