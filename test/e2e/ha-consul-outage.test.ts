/**
 * Issue 24 item 3: three real instances (`node dist/main.js start`) in one HA cluster, then Consul
 * stops under them. On main the leader, once it stepped down, named itself the cluster's leader
 * ("follower; leader: <itself>"), its `/v1/status` redirected clients to itself, and
 * `/v1/status/cluster` gave no answer for 70 s. Now no instance names itself leader without the
 * lock, nothing redirects to itself, and the cluster status answers at once with what is known: the
 * members as last read, a `consul` state, and the leader last confirmed marked stale. When Consul is
 * back, a leader is elected and the status is current again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer as startServer, type ConsulDevServer } from "../../dev-servers/consul/mod.ts";
import { nodeSnapshotFiles } from "../../harness/consul-dev-server.ts";
import {
  bundleRecordingDriver, type HaInstance, recordingDriverHcl, registerService, startCluster, stopCluster, until, waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";

const CLUSTER = "outage";
let dir: string;
let consul: ConsulDevServer;
let instances: HaInstance[] = [];
const outputs = () => instances.map((i) => `--- ${i.id}\n${i.output.slice(-2500)}`).join("\n");
const consulOptions = () => ({ snapshotPath: join(dir, "consul.json"), fileSystem: nodeSnapshotFiles, snapshotDebounceMs: 50, sessionTtlMinMs: 100 });

interface ClusterView {
  readonly members: { id: string; leader: boolean }[];
  readonly consul?: { reachable: boolean; since?: string };
  readonly members_as_of?: string | null;
  readonly leader?: { id: string; stale: boolean; stale_seconds?: number };
}

/** The cluster status, bounded: a hang fails the request (undefined), a timely answer is returned. */
async function clusterView(instance: HaInstance): Promise<ClusterView | undefined> {
  const answer = await instance.api("GET", "/v1/status/cluster");
  return answer?.status === 200 ? answer.json as unknown as ClusterView : undefined;
}

async function redirectOf(instance: HaInstance): Promise<string | undefined> {
  return ((await instance.api("GET", "/v1/status"))?.json["error"] as { message?: string } | undefined)?.message;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cts-ha-outage-"));
  consul = await startServer(consulOptions());
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  const bundle = await bundleRecordingDriver(dir);
  instances = await startCluster({
    consulAddress: consul.address, cluster: CLUSTER, dir, sessionTtl: "1000ms",
    driverHcl: recordingDriverHcl(bundle, join(dir, "records.jsonl")),
    tasksHcl: `task {
  name   = "rec-web"
  module = "./mod"
  condition "services" { names = ["web"] }
}
`,
    checkInterval: "1s", checkTimeout: "1s",
  }, 3);
}, 60_000);

afterAll(async () => {
  await stopCluster(instances);
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("an HA cluster while Consul is down", () => {
  beforeEach(() => onTestFailed(() => console.log(outputs())));

  it("never names itself leader without the lock, never redirects to itself, answers its cluster status at once", async () => {
    const leader = await waitForLeader(instances);
    for (const instance of instances) {
      await until(`${instance.id}'s three members`, async () => ((await clusterView(instance))?.members.length === 3 ? true : undefined), 30_000);
    }
    await consul.stop();
    await until(`${leader.id} stepping down`, async () => ((await leader.leads()) ? undefined : true), 30_000);

    for (const instance of instances) {
      // The API call gives up after 5 s: on main this request hung for 70 s.
      const view = await until(`${instance.id}'s cluster status without Consul`, async () => {
        const current = await clusterView(instance);
        return current?.consul?.reachable === false ? current : undefined;
      }, 30_000);
      expect(view.members.map((member) => member.id).sort(), instance.id).toEqual(instances.map((i) => i.id).sort());
      expect(view.members_as_of, instance.id).toEqual(expect.any(String));
      if (instance !== leader) {
        // A follower names the leader it last confirmed, marked stale with its age.
        expect(view.leader, instance.id).toEqual({ id: leader.id, address: `127.0.0.1:${leader.port}`, stale: true, stale_seconds: expect.any(Number) });
      }
      expect(view.members.filter((member) => member.leader && member.id === instance.id), instance.id).toEqual([]);

      const message = await redirectOf(instance);
      expect(message, `${instance.id} /v1/status`).toMatch(/^redirect requests to leader/);
      expect(message, `${instance.id} redirects to itself`).not.toContain(`'${instance.id}'`);
      const overview = (await instance.api("GET", "/ui/overview.json"))!.json as { is_leader: boolean; leader?: { id: string }; leader_stale_since?: string };
      expect(overview.is_leader).toBe(false);
      expect(overview.leader?.id, `${instance.id}'s status page names itself`).not.toBe(instance.id);
      if (overview.leader) expect(overview.leader_stale_since).toEqual(expect.any(String));
    }
    // The stepped-down leader itself no longer knows who leads: it names nobody rather than itself.
    expect((await clusterView(leader))!.leader).toBeUndefined();
  }, 120_000);

  it("elects a leader again once Consul is back, and the status is current", async () => {
    consul = await startServer({ ...consulOptions(), port: consul.port });
    const leader = await waitForLeader(instances, 60_000);
    for (const instance of instances) {
      const view = await until(`${instance.id}'s current cluster status`, async () => {
        const current = await clusterView(instance);
        return current?.consul?.reachable === true && current.leader?.id === leader.id ? current : undefined;
      }, 30_000);
      expect(view.leader?.stale).toBe(false);
      expect(view.members_as_of).toBeUndefined();
    }
  }, 120_000);
});
