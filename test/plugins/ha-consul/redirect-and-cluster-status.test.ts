/**
 * Follower redirects (CTS's three messages, which paths they cover) and `/v1/status/cluster` built from
 * real LeaderElection members and real service registrations in the embedded Consul server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CtsConfig, Leadership } from "../../../core/plugin-api/mod.ts";
import { testConfig } from "../../../core/plugin-testkit/mod.ts";
import { clusterTag, createClusterStatusHandler } from "../../../plugins/ha-consul/src/cluster-status.ts";
import { createFollowerRedirect, redirectMessage } from "../../../plugins/ha-consul/src/follower-redirect.ts";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { haConfig, type Member, settledLeader, startHaConsul, startMember, stopMember } from "../../../harness/ha-consul/ha-harness.ts";

function fixedLeadership(isLeader: boolean, leader?: { id: string; address?: string }): Leadership {
  return { instanceId: "cts-self", isLeader: () => isLeader, leader: () => leader, subscribe: () => () => {} };
}

async function redirected(leadership: Leadership, path: string, method = "GET"): Promise<{ status: number; body: unknown } | undefined> {
  const response = await createFollowerRedirect(leadership)(new Request(`http://127.0.0.1${path}`, { method }));
  return response ? { status: response.status, body: await response.json() } : undefined;
}

describe("follower redirect", () => {
  it("words the three CTS variants", () => {
    expect(redirectMessage(fixedLeadership(false, { id: "cts-01", address: "cts-01.example.com" })))
      .toBe("redirect requests to leader 'cts-01' at cts-01.example.com");
    expect(redirectMessage(fixedLeadership(false, { id: "cts-01" }))).toBe("redirect requests to leader 'cts-01'");
    expect(redirectMessage(fixedLeadership(false))).toBe("redirect requests to leader");
  });

  it("answers task and status requests on a follower with 400 and the message", async () => {
    const follower = fixedLeadership(false, { id: "cts-01", address: "10.0.0.1:8558" });
    for (const [path, method] of [
      ["/v1/tasks", "POST"], ["/v1/tasks/web", "GET"], ["/v1/tasks/web", "PATCH"], ["/v1/tasks/web", "DELETE"],
      ["/v1/status", "GET"], ["/v1/status/tasks", "GET"], ["/v1/status/tasks/web?include=events", "GET"],
    ] as const) {
      expect(await redirected(follower, path, method), `${method} ${path}`).toEqual({
        status: 400, body: { error: { message: "redirect requests to leader 'cts-01' at 10.0.0.1:8558" } },
      });
    }
  });

  it("lets cluster status, health and unknown paths through on a follower, and everything on the leader", async () => {
    const follower = fixedLeadership(false);
    for (const path of ["/v1/status/cluster", "/v1/health", "/v1/other", "/v1/tasksx"]) {
      expect(await redirected(follower, path), path).toBeUndefined();
    }
    const leader = fixedLeadership(true, { id: "cts-self" });
    expect(await redirected(leader, "/v1/tasks", "POST")).toBeUndefined();
    expect(await redirected(leader, "/v1/status/tasks")).toBeUndefined();
  });
});

describe("cluster status", () => {
  let consul: TestConsulDevServer;
  let members: Member[] = [];
  const cluster = "status-cluster";

  beforeAll(async () => {
    consul = await startHaConsul();
    for (const id of ["cts-a", "cts-b", "cts-c"]) {
      members.push(await startMember(consul, cluster, id, id === "cts-b" ? "" : `${id}.example.com:8558`));
    }
    // Each instance registers itself with the cluster tag, as service-registration does in HA mode.
    for (const [n, id] of ["cts-a", "cts-b", "cts-c"].entries()) {
      const response = await fetch(`${consul.url}/v1/agent/service/register`, {
        method: "PUT",
        body: JSON.stringify({
          ID: id, Name: cluster, Tags: ["cts", clusterTag(cluster)], Port: 9000 + n,
          Check: { CheckID: `${id}-health`, Name: "CTS Health Status", TTL: "10m", Status: id === "cts-c" ? "critical" : "passing" },
        }),
      });
      expect(response.status).toBe(200);
    }
    // Another cluster's instance must not show up.
    await fetch(`${consul.url}/v1/agent/service/register`, {
      method: "PUT",
      body: JSON.stringify({ ID: "cts-other", Name: cluster, Tags: ["cts", clusterTag("other")] }),
    });
  });
  afterAll(async () => {
    await Promise.all(members.map(stopMember));
    members = [];
    await consul?.stop();
  });

  function configOf(member: Member): CtsConfig {
    const base = testConfig({ consulAddress: consul.address });
    return {
      ...base,
      id: member.id,
      consul: { ...base.consul, service_registration: { ...base.consul.service_registration, service_name: cluster } },
      high_availability: haConfig(cluster, { address: member.id === "cts-b" ? "" : `${member.id}.example.com:8558` }),
    };
  }

  async function statusOn(member: Member): Promise<{ status: number; body: Record<string, unknown> }> {
    const handler = createClusterStatusHandler(member.client, configOf(member), member.election);
    const response = await handler(new Request("http://127.0.0.1/v1/status/cluster"));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("agrees on every member: name, members, health, leader and its address", async () => {
    const leader = await settledLeader(members);
    const answers = await Promise.all(members.map(statusOn));
    const expected = ["cts-a", "cts-b", "cts-c"].map((id) => ({
      id,
      service_name: cluster,
      healthy: id !== "cts-c",
      leader: id === leader.id,
      ...(id === leader.id && id !== "cts-b" ? { address: `${id}.example.com:8558` } : {}),
    }));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body["cluster_name"]).toBe(cluster);
      expect(answer.body["members"]).toEqual(expected);
      expect(answer.body["request_id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("still agrees after the leader changes", async () => {
    const old = await settledLeader(members);
    await stopMember(old);
    const live = members.filter((member) => member !== old);
    const leader = await settledLeader(live);
    const answers = await Promise.all(live.map(statusOn));
    for (const answer of answers) {
      const listed = answer.body["members"] as { id: string; leader: boolean }[];
      expect(listed.filter((member) => member.leader).map((member) => member.id)).toEqual([leader.id]);
    }
    expect(answers[0]!.body["members"]).toEqual(answers[1]!.body["members"]);
  });

  it("answers 405 to other methods", async () => {
    const handler = createClusterStatusHandler(members[0]!.client, configOf(members[0]!), members[0]!.election);
    const response = await handler(new Request("http://127.0.0.1/v1/status/cluster", { method: "POST" }));
    expect(response.status).toBe(405);
  });
});
