/**
 * High availability end to end with real processes (`node dist/main.js start`): three instances with
 * distinct ids and ports in one cluster, the embedded Consul server in this process, the recording
 * driver writing every apply of every instance to one JSON-lines file.
 *
 * Bounds here are generous limits so a loaded machine does not fail them; the failover figures
 * themselves are measured by bench/ha-failover.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { runCli } from "../../harness/run-cli.ts";
import {
  bundleRecordingDriver, currentLeaders, failover, type HaInstance, overlappingApplies, readRecords, recordingDriverHcl,
  registerService, startCluster, stopCluster, until, waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";

const TTL_MS = 1000;
const CLUSTER = "ha-e2e";
const KILLS = Number(process.env["HA_KILLS"] ?? 20);

let consul: TestConsulDevServer;
let dir: string;
let instances: HaInstance[] = [];
let recordFile: string;
let serial = 0;

const tasksHcl = `task {
  name   = "rec-web"
  module = "./mod"
  condition "services" { names = ["web"] }
}
`;

/** Registers (or moves) a web instance; returns the address it now has. */
async function changeWeb(): Promise<string> {
  const address = `10.1.${Math.floor(++serial / 250)}.${serial % 250}`;
  await registerService(consul.url, `web-${serial % 3}`, "web", address);
  return address;
}

const applies = (task = "rec-web") => readRecords(recordFile).filter((entry) => entry.op === "apply" && entry.task === task);
const appliedAddress = (address: string) => applies().some((entry) =>
  Object.values(entry.input?.services ?? {}).some((service) => service.address === address));
/** Starts any instance that is down and waits until all three answer /v1/health. */
async function allRunning(): Promise<void> {
  for (const instance of instances) if (!instance.running) instance.start();
  await until("all three instances up", async () => ((await Promise.all(instances.map((i) => i.api("GET", "/v1/health"))))
    .every((answer) => answer?.status === 200) ? true : undefined), 30_000);
}

/** Polls a GET until it answers `status` (a leader may still be loading its tasks right after election). */
function answers(instance: HaInstance, path: string, status: number) {
  return until(`${instance.id} GET ${path} → ${status}`, async () => {
    const answer = await instance.api("GET", path);
    return answer?.status === status ? answer : undefined;
  }, 20_000);
}

const passes = (instance: HaInstance) => instance.output.split("all tasks ran once; watching for changes").length - 1;
const skips = (instance: HaInstance) => instance.output.split("inputs unchanged since the last apply, apply skipped").length - 1;

/** Waits for `instance` to finish one more leader pass than `before` (all its tasks are loaded then). */
function passDone(instance: HaInstance, before: number) {
  return until(`${instance.id}'s leader pass`, () => (passes(instance) > before ? true : undefined), 20_000);
}

const outputs = () => instances.map((instance) => `--- ${instance.id}\n${instance.output.slice(-3000)}`).join("\n");

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  dir = mkdtempSync(join(tmpdir(), "cts-ha-e2e-"));
  recordFile = join(dir, "records.jsonl");
  const bundle = await bundleRecordingDriver(dir);
  await changeWeb();
  instances = await startCluster({
    consulAddress: consul.address,
    cluster: CLUSTER,
    dir,
    sessionTtl: `${TTL_MS}ms`,
    driverHcl: recordingDriverHcl(bundle, recordFile, 150),
    tasksHcl,
  }, 3);
}, 60_000);

afterAll(async () => {
  await stopCluster(instances);
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("HA cluster of three real processes", () => {
  let leader: HaInstance;
  beforeEach(() => onTestFailed(() => console.log(outputs())));

  it("elects one leader that runs the task; followers redirect; cluster status agrees", async () => {
    leader = await waitForLeader(instances);
    await until("the leader's first apply", () => (applies().length > 0 ? true : undefined));
    expect(new Set(applies().map((entry) => entry.instance))).toEqual(new Set([leader.id]));
    expect(leader.output).toMatch(new RegExp(`\\[INFO\\]\\s+ha: acquired leadership lock: id=${leader.id}`));

    const redirect = `redirect requests to leader '${leader.id}' at 127.0.0.1:${leader.port}`;
    for (const follower of instances.filter((instance) => instance !== leader)) {
      // A follower that has just started may not have read the lock yet ("redirect requests to leader").
      await until(`${follower.id} to know the leader`, async () =>
        ((await follower.api("GET", "/v1/status"))?.json["error"] as { message?: string } | undefined)?.message === redirect ? true : undefined);
      for (const path of ["/v1/status", "/v1/tasks/rec-web", "/v1/status/tasks"]) {
        expect(await follower.api("GET", path), `${follower.id} ${path}`).toEqual({ status: 400, json: { error: { message: redirect } } });
      }
    }

    const view = (json: Record<string, unknown>) =>
      (json["members"] as { id: string; leader: boolean; address?: string; service_name: string }[])
        .map(({ id, leader, address, service_name }) => ({ id, leader, address, service_name }));
    const expected = instances.map((instance) => ({
      id: instance.id,
      leader: instance === leader,
      address: instance === leader ? `127.0.0.1:${leader.port}` : undefined,
      service_name: CLUSTER,
    }));
    // Members come from service registration, which each instance does once its API listens.
    for (const instance of instances) {
      const answer = await until(`${instance.id}'s cluster status`, async () => {
        const status = await instance.api("GET", "/v1/status/cluster");
        return status?.status === 200 && view(status.json).length === 3 ? status : undefined;
      }, 20_000);
      expect(answer.json["cluster_name"]).toBe(CLUSTER);
      expect(view(answer.json)).toEqual(expected);
    }
  }, 60_000);

  it("keeps a task created through the API on the leader across a graceful failover", async () => {
    const created = await leader.api("POST", "/v1/tasks?run=now", {
      task: { name: "api-task", module: "./mod", condition: { services: { names: ["web"] } } },
    });
    expect(created?.status).toBe(201);
    await until("api-task's first apply", () => (applies("api-task").length > 0 ? true : undefined));

    const { next, ms } = await failover(instances, leader, "SIGTERM");
    expect(next).not.toBe(leader);
    // Graceful: the lock is released on the way out; the bound only guards against waiting for TTL expiry.
    expect(ms).toBeLessThan(2 * TTL_MS + 3000);
    leader = next;
    const task = await answers(next, "/v1/tasks/api-task", 200);
    expect((task.json["task"] as { name: string }).name).toBe("api-task");
  }, 60_000);

  it("after kill -9 a follower takes over and runs its once-pass without re-applying unchanged inputs", async () => {
    await allRunning();
    leader = await waitForLeader(instances);
    await passDone(leader, passes(leader) - 1);
    const before = applies().length;
    // An instance's output spans its earlier leaderships too: count passes, and skips, from here on.
    const passesBefore = new Map(instances.map((instance) => [instance, passes(instance)]));
    const skipsBefore = new Map(instances.map((instance) => [instance, skips(instance)]));
    const { next, ms } = await failover(instances, leader, "SIGKILL");
    expect(ms).toBeLessThan(2 * TTL_MS + 5000);
    await passDone(next, passesBefore.get(next)!);
    // Nothing changed in Consul, so the new leader skipped both applies (it records that it skipped).
    expect(applies().length).toBe(before);
    expect(skips(next), next.output).toBe(skipsBefore.get(next)! + 2);
    leader = next;
  }, 60_000);

  it("applies a change made while no instance leads", async () => {
    await allRunning();
    leader = await waitForLeader(instances);
    const t0 = Date.now();
    await leader.kill("SIGKILL");
    const address = await changeWeb();
    expect((await currentLeaders(instances)).length).toBe(0);
    const next = await waitForLeader(instances);
    await until(`the change to ${address} to be applied`, () => (appliedAddress(address) ? true : undefined));
    const applied = applies().filter((entry) => entry.start >= t0);
    expect(applied.every((entry) => entry.instance === next.id)).toBe(true);
    leader = next;
  }, 60_000);

  it(`never lets two instances apply at once across ${KILLS} leader kills with changes flowing`, async () => {
    let changing = true;
    let lastAddress = "";
    const changes = (async () => {
      while (changing) {
        lastAddress = await changeWeb();
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
    })();
    const maxLeadersSeen: number[] = [];
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        // The killed instance restarts in the background; a follower to take over is all the next kill needs.
        for (const instance of instances) if (!instance.running) instance.start();
        await until("a leader and a follower up", async () => ((await Promise.all(instances.map((i) => i.api("GET", "/v1/health"))))
          .filter((answer) => answer?.status === 200).length >= 2 ? true : undefined), 30_000);
        // Let the leader get into an apply sometimes, and sometimes kill it mid-apply.
        await new Promise((resolve) => setTimeout(resolve, 50 + (kill % 4) * 100));
        maxLeadersSeen.push((await currentLeaders(instances)).length);
        const { next } = await failover(instances, leader, kill % 3 === 2 ? "SIGTERM" : "SIGKILL");
        leader = next;
      }
    } finally {
      changing = false;
      await changes;
    }
    await until(`the last change (${lastAddress}) to be applied`, () => (appliedAddress(lastAddress) ? true : undefined), 30_000);
    expect(overlappingApplies(readRecords(recordFile)), outputs()).toEqual([]);
    expect(Math.max(...maxLeadersSeen)).toBe(1);
    expect(new Set(applies().map((entry) => entry.instance)).size).toBe(3);
  }, 180_000);

  it("keeps API-created tasks across a full cluster restart, and -reset-storage drops them", async () => {
    await stopCluster(instances);
    for (const instance of instances) instance.start();
    leader = await waitForLeader(instances);
    await answers(leader, "/v1/tasks/api-task", 200);

    await stopCluster(instances);
    const [first, ...rest] = instances;
    const firstPasses = passes(first!);
    first!.start("-reset-storage");
    expect(await waitForLeader([first!])).toBe(first);
    for (const instance of rest) instance.start();
    await passDone(first!, firstPasses);
    expect((await first!.api("GET", "/v1/tasks/rec-web"))?.status).toBe(200);
    expect((await first!.api("GET", "/v1/tasks/api-task"))?.status).toBe(404);
    // The others find the reset state when they lead next.
    const before = new Map(rest.map((instance) => [instance, passes(instance)]));
    const { next } = await failover(instances, first!, "SIGTERM");
    await passDone(next, before.get(next)!);
    expect((await next.api("GET", "/v1/tasks/rec-web"))?.status).toBe(200);
    expect((await next.api("GET", "/v1/tasks/api-task"))?.status).toBe(404);
    leader = next;
  }, 90_000);

  it("-once with the HA config runs the tasks and exits without joining the election", async () => {
    await allRunning();
    leader = await waitForLeader(instances);
    const once = await runCli("node", ["start", "-once", `-config-file=${instances[0]!.configPath}`], { cwd: instances[0]!.dir });
    expect(once.code, once.stdout + once.stderr).toBe(0);
    expect(once.stdout + once.stderr).not.toMatch(/acquired leadership lock/);
    expect(await waitForLeader(instances)).toBe(leader);
  }, 60_000);
});
