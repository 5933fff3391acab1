/**
 * LeaderElection with several in-process instances on one cluster against the embedded Consul server
 * over real HTTP: one leader that all agree on, graceful hand-over, session invalidation, fencing when
 * Consul goes away, and never two leaders at the same time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import {
  layoutOf, leaders, type Member, settledLeader, startHaConsul, startMember, stopMember, until,
} from "../../../harness/ha-consul/ha-harness.ts";

let consul: TestConsulDevServer;
let started: Member[] = [];
let clusters = 0;

beforeAll(async () => {
  consul = await startHaConsul();
});
afterEach(async () => {
  await Promise.all(started.map(stopMember));
  started = [];
});
afterAll(async () => {
  await consul?.stop();
});

async function cluster(size: number, address = (id: string) => ""): Promise<{ name: string; members: Member[] }> {
  const name = `election-${++clusters}`;
  const members: Member[] = [];
  for (let n = 1; n <= size; n++) {
    const id = `cts-${n}`;
    members.push(await startMember(consul, name, id, address(id)));
  }
  started.push(...members);
  return { name, members };
}

/** Samples leadership every few ms while `during` runs; returns the largest number of leaders seen at once. */
async function maxConcurrentLeaders(members: readonly Member[], during: () => Promise<void>): Promise<number> {
  let max = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      max = Math.max(max, leaders(members).length);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  try {
    await during();
  } finally {
    sampling = false;
    await sampler;
  }
  return max;
}

async function lockHolder(name: string): Promise<{ Session?: string; Value: string | null } | undefined> {
  const response = await fetch(`${consul.url}/v1/kv/${layoutOf(name).leaderKey}`);
  if (response.status === 404) return undefined;
  return ((await response.json()) as { Session?: string; Value: string | null }[])[0];
}

describe("LeaderElection", () => {
  it("elects exactly one leader that every member names, and logs it like CTS", async () => {
    const { name, members } = await cluster(3, (id) => `${id}.example.com:8558`);
    const leader = await settledLeader(members);
    expect(leaders(members)).toEqual([leader]);
    expect(leader.changes).toEqual([true]);
    for (const member of members) {
      expect(member.election.leader()).toEqual({ id: leader.id, address: `${leader.id}.example.com:8558` });
      if (member !== leader) expect(member.changes).toEqual([]);
    }
    expect(leader.logger.lines).toContainEqual(expect.objectContaining({
      level: "INFO", name: "ha", message: "acquired leadership lock", fields: { id: leader.id },
    }));
    const holder = await lockHolder(name);
    expect(JSON.parse(atob(holder!.Value!))).toEqual({ id: leader.id, address: `${leader.id}.example.com:8558` });
  });

  it("hands over on a graceful stop, with never two leaders at once", async () => {
    const { members } = await cluster(3);
    let leader = await settledLeader(members);
    const live = [...members];
    for (let round = 0; round < 2; round++) {
      const max = await maxConcurrentLeaders(live, async () => {
        await stopMember(leader);
        live.splice(live.indexOf(leader), 1);
        leader = await settledLeader(live);
      });
      expect(max).toBe(1);
    }
    expect(live).toHaveLength(1);
    expect(live[0]!.election.isLeader()).toBe(true);
  });

  it("steps down at once when its session is invalidated, and a member leads again", async () => {
    const { name, members } = await cluster(2);
    const leader = await settledLeader(members);
    // Steady state: every member's blocking read of the lock key is parked (reads are spaced ≥100 ms).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const session = (await lockHolder(name))!.Session!;
    const max = await maxConcurrentLeaders(members, async () => {
      const destroyed = await fetch(`${consul.url}/v1/session/destroy/${session}`, { method: "PUT" });
      expect(await destroyed.json()).toBe(true);
      await until("old leader steps down", () => (leader.election.isLeader() ? undefined : true));
      await settledLeader(members);
    });
    expect(max).toBe(1);
    expect(leader.changes.slice(0, 2)).toEqual([true, false]);
    expect((await lockHolder(name))!.Session).not.toBe(session);
  });

  it("steps down when the lock key is taken over by hand, without a second leader", async () => {
    const { name, members } = await cluster(2);
    const leader = await settledLeader(members);
    const max = await maxConcurrentLeaders(members, async () => {
      // An operator deleting the lock key frees it; whoever acquires it next leads, alone.
      const deleted = await fetch(`${consul.url}/v1/kv/${layoutOf(name).leaderKey}`, { method: "DELETE" });
      expect(deleted.status).toBe(200);
      await settledLeader(members);
    });
    expect(max).toBe(1);
    expect(leader.logger.text()).toMatch(/lost leadership lock|acquired leadership lock/);
  });

  it("keeps a single leader across a Consul restart", async () => {
    const { members } = await cluster(2);
    await settledLeader(members);
    const max = await maxConcurrentLeaders(members, async () => {
      await consul.restart();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await settledLeader(members);
    });
    expect(max).toBe(1);
  });

  it("a lone member with a stopped Consul leads no longer than a TTL", async () => {
    const solo = await startHaConsul();
    const member = await startMember(solo, "fence-solo", "cts-solo");
    try {
      await until("solo leads", () => (member.election.isLeader() ? true : undefined));
      await solo.stop();
      await until("solo fenced", () => (member.election.isLeader() ? undefined : true));
      expect(member.logger.lines.map((line) => line.message)).toContain("no session renewal for a whole TTL; stepping down");
    } finally {
      await stopMember(member);
    }
  });

  it("stop() while campaigning leaves no session behind", async () => {
    const { members } = await cluster(2);
    await settledLeader(members);
    await Promise.all(members.map(stopMember));
    started = [];
    const sessions = (await (await fetch(`${consul.url}/v1/session/list`)).json()) as { Name: string }[];
    expect(sessions.filter((session) => session.Name.includes(`election-${clusters} `))).toEqual([]);
  });
});
