/**
 * Issue 24 item 2: damaged records in an HA cluster's Consul KV, every kind, with two real processes
 * (`node dist/main.js start`), the embedded Consul and the recording driver. On main a truncated task
 * record left the leader "healthy" with zero tasks and only an unrelated `ha.compat` line; a damaged
 * events key made every later run log `cannot store task event`; a damaged run record made
 * `GET /v1/tasks/<task>/runs` answer 500 for good; damaged lock values (leader, member, owner) were
 * read as an unknown instance with nothing said. Now each is reported by key at ERROR (and in
 * `/v1/status`), the damaged task is errored with how to repair it, the others run, event lists and
 * run records are set aside, and the holder of a lock writes its value anew.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import {
  bundleRecordingDriver, type HaInstance, readRecords, recordingDriverHcl, registerService, startCluster, stopCluster, until, waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";
import { liveMembers, settledOwners, taskOwners } from "../../harness/ha-consul/shared-cluster-support.ts";

let consul: TestConsulDevServer;
let dir: string;
let bundle: string;
let recordFile: string;
let leaderMode: HaInstance[] = [];
let shared: HaInstance[] = [];
let serial = 0;

const root = (cluster: string) => `consul-terraform-sync/${cluster}`;
const outputs = () => [...leaderMode, ...shared].map((i) => `--- ${i.id}\n${i.output.slice(-3000)}`).join("\n");
const tasksHcl = ["rec-a", "rec-b"].map((name) => `task {
  name   = "${name}"
  module = "./mod"
  condition "services" { names = ["web"] }
}
`).join("");

async function kvGet(key: string): Promise<string | undefined> {
  const response = await fetch(`${consul.url}/v1/kv/${key}?raw`);
  return response.status === 200 ? await response.text() : undefined;
}

async function kvPut(key: string, value: string): Promise<void> {
  expect((await fetch(`${consul.url}/v1/kv/${key}`, { method: "PUT", body: value })).status).toBe(200);
}

/** The `id` a lock value names, undefined while it is not JSON. */
async function storedId(key: string): Promise<string | undefined> {
  try {
    return (JSON.parse((await kvGet(key)) ?? "{}") as { id?: string }).id;
  } catch {
    return undefined;
  }
}

/** Cuts the stored value to its first `bytes` bytes, as a full disk or a bad hand edit leaves it. */
async function truncate(key: string, bytes = 150): Promise<void> {
  const value = await kvGet(key);
  expect(value, key).toBeDefined();
  await kvPut(key, value!.slice(0, bytes));
}

const applies = (task: string) => readRecords(recordFile).filter((entry) => entry.op === "apply" && entry.task === task);
const errorLines = (instance: HaInstance, key: string) =>
  instance.output.split("\n").filter((line) => line.includes("[ERROR]") && line.includes("stored record cannot be decoded") && line.includes(`key=${key} `));
/** A lock's value is read by every instance, its holder included, whichever sees it first reports it. */
const reportedBySome = (instances: readonly HaInstance[], key: string) => instances.some((instance) => errorLines(instance, key).length > 0);
async function noDamageListed(instances: readonly HaInstance[], key: string): Promise<boolean> {
  const answers = await Promise.all(instances.map((instance) => instance.api("GET", "/v1/status/cluster")));
  return answers.every((answer) => answer?.status === 200 &&
    !((answer.json["damaged_records"] ?? []) as { key: string }[]).some((record) => record.key === key));
}

async function changeWeb(): Promise<void> {
  await registerService(consul.url, `web-${++serial}`, "web", `10.0.0.${serial}`);
}

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  dir = mkdtempSync(join(tmpdir(), "cts-ha-damaged-"));
  recordFile = join(dir, "records.jsonl");
  bundle = await bundleRecordingDriver(dir);
  await changeWeb();
  // Both clusters start together (their keys are apart); the shared one is used by the last case.
  [leaderMode, shared] = await Promise.all([
    startCluster({
      consulAddress: consul.address, cluster: "damaged", dir: join(dir, "leader"), sessionTtl: "1000ms",
      driverHcl: recordingDriverHcl(bundle, recordFile), tasksHcl,
    }, 2),
    startCluster({
      consulAddress: consul.address, cluster: "damaged-shared", dir: join(dir, "shared"), sessionTtl: "1000ms",
      // Its own record file: its tasks have the leader-mode cluster's names.
      driverHcl: recordingDriverHcl(bundle, join(dir, "shared-records.jsonl")), tasksHcl, clusterHcl: 'mode = "shared"',
    }, 2),
  ]);
}, 60_000);

afterAll(async () => {
  await stopCluster([...leaderMode, ...shared]);
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("damaged records in a leader-mode cluster", () => {
  beforeEach(() => onTestFailed(() => console.log(outputs())));

  it("a damaged task record: that task is errored with how to repair it, the other runs, the key is reported", async () => {
    let leader = await waitForLeader(leaderMode);
    await until("both tasks applied", () => (applies("rec-a").length > 0 && applies("rec-b").length > 0 ? true : undefined), 30_000);
    await stopCluster(leaderMode);
    const key = `${root("damaged")}/tasks/rec-b`;
    await truncate(key);
    for (const instance of leaderMode) instance.start();
    leader = await waitForLeader(leaderMode);

    const tasks = await until("the leader's task status", async () => {
      const answer = await leader.api("GET", "/v1/status/tasks?include=events");
      return answer?.status === 200 && Object.keys(answer.json).length === 2 ? answer.json : undefined;
    }, 30_000);
    const damaged = tasks["rec-b"] as { status: string; events: { error: { message: string } }[] };
    expect(damaged.status).toBe("errored");
    expect(damaged.events[0]!.error.message).toContain(`Cannot load task "rec-b" from ${key}: its value (150 bytes) is not valid JSON`);
    expect(damaged.events[0]!.error.message).toContain("DELETE /v1/tasks/rec-b removes it");
    expect(damaged.events[0]!.error.message).toContain("-reset-storage");
    expect(errorLines(leader, key)).toHaveLength(1);
    const status = await leader.api("GET", "/v1/status");
    expect(status?.json["damaged_records"]).toEqual([expect.objectContaining({ key, kind: "task", task: "rec-b" })]);

    // The other task runs; the damaged one never does, and refuses changes other than a delete.
    const before = { a: applies("rec-a").length, b: applies("rec-b").length };
    await changeWeb();
    await until("rec-a's run for the change", () => (applies("rec-a").length > before.a ? true : undefined), 30_000);
    expect(applies("rec-b").length).toBe(before.b);
    const patched = await leader.api("PATCH", "/v1/tasks/rec-b", { enabled: false });
    expect(patched?.status).toBe(400);
    expect((patched?.json["error"] as { message: string }).message).toMatch(/^Cannot update task "rec-b": Cannot load task "rec-b" from /);

    // The repair its status names: delete it; its keys go, and nothing is reported any more.
    expect((await leader.api("DELETE", "/v1/tasks/rec-b"))?.status).toBe(202);
    await until("rec-b gone", async () => ((await leader.api("GET", "/v1/tasks/rec-b"))?.status === 404 ? true : undefined), 30_000);
    expect(await kvGet(key)).toBeUndefined();
    expect((await leader.api("GET", "/v1/status"))?.json["damaged_records"]).toBeUndefined();
  }, 120_000);

  it("a damaged events key is set aside: the next run stores its event, the status answers", async () => {
    const leader = await waitForLeader(leaderMode);
    const key = `${root("damaged")}/events/rec-a`;
    await truncate(key, 20);
    const before = applies("rec-a").length;
    await changeWeb();
    await until("rec-a's run", () => (applies("rec-a").length > before ? true : undefined), 30_000);
    const events = await until("rec-a's new event stored", async () => {
      const stored = await kvGet(key);
      try {
        return stored ? (JSON.parse(stored) as unknown[]) : undefined;
      } catch {
        return undefined;
      }
    }, 30_000);
    expect(events.length).toBeGreaterThan(0);
    expect(leader.output).not.toContain("cannot store task event");
    expect(await kvGet(`${root("damaged")}/damaged/events/rec-a`)).toHaveLength(20);
    expect(errorLines(leader, key)).toHaveLength(1);
    expect((await leader.api("GET", "/v1/status/tasks/rec-a?include=events"))?.status).toBe(200);
  }, 60_000);

  it("a damaged run record is set aside: the run history answers without it, and its id is not found", async () => {
    const leader = await waitForLeader(leaderMode);
    const runs = (await leader.api("GET", "/v1/tasks/rec-a/runs?limit=100"))!.json["runs"] as { id: string }[];
    expect(runs.length).toBeGreaterThan(1);
    const id = runs[0]!.id;
    const key = `${root("damaged")}/runs/rec-a/${id}`;
    await truncate(key, 40);
    for (let read = 0; read < 2; read++) {
      const answer = await leader.api("GET", "/v1/tasks/rec-a/runs?limit=100");
      expect(answer?.status).toBe(200);
      expect((answer!.json["runs"] as { id: string }[]).map((run) => run.id)).toEqual(runs.slice(1).map((run) => run.id));
    }
    expect((await leader.api("GET", `/v1/tasks/rec-a/runs/${id}`))?.status).toBe(404);
    expect(await kvGet(key)).toBeUndefined();
    expect(await kvGet(`${root("damaged")}/damaged/runs/rec-a/${id}`)).toHaveLength(40);
    expect(errorLines(leader, key)).toHaveLength(1);
  }, 60_000);

  it("a damaged run detail (output, resources, outputs) is set aside: the run reads without it", async () => {
    const leader = await waitForLeader(leaderMode);
    const runs = (await leader.api("GET", "/v1/tasks/rec-a/runs?limit=100"))!.json["runs"] as { id: string }[];
    const id = runs[0]!.id;
    const key = `${root("damaged")}/run-details/rec-a/${id}`;
    await kvPut(key, `{"logs":{"apply":{"text":"cut sh`);
    const answer = await leader.api("GET", `/v1/tasks/rec-a/runs/${id}`);
    expect(answer?.status).toBe(200);
    const run = answer!.json["run"] as Record<string, unknown>;
    expect(run).toMatchObject({ id, task: "rec-a" });
    expect(run["logs"]).toBeUndefined();
    expect(await kvGet(key)).toBeUndefined();
    expect(await kvGet(`${root("damaged")}/damaged/run-details/rec-a/${id}`)).toBe(`{"logs":{"apply":{"text":"cut sh`);
    expect(errorLines(leader, key)).toHaveLength(1);
    expect((await leader.api("GET", `/v1/tasks/rec-a/runs/${id}`))?.status).toBe(200);
  }, 60_000);

  it("a damaged leader lock value: reported by key, written anew by the leader, the follower names the leader again", async () => {
    const leader = await waitForLeader(leaderMode);
    const follower = leaderMode.find((instance) => instance !== leader)!;
    const key = `${root("damaged")}/leader`;
    await kvPut(key, '{"id": "cts-');
    const redirect = `redirect requests to leader '${leader.id}' at 127.0.0.1:${leader.port}`;
    await until("the damaged leader value reported", () => (reportedBySome(leaderMode, key) ? true : undefined), 30_000);
    await until("the leader's lock value written anew", async () => ((await storedId(key)) === leader.id ? true : undefined), 30_000);
    await until("the follower naming the leader", async () =>
      ((await follower.api("GET", "/v1/status"))?.json["error"] as { message?: string } | undefined)?.message === redirect ? true : undefined, 30_000);
    await until("no damaged record listed any more", async () => ((await noDamageListed(leaderMode, key)) ? true : undefined), 30_000);
  }, 60_000);
});

describe("damaged records in a shared cluster", () => {
  beforeEach(() => onTestFailed(() => console.log(outputs())));

  it("damaged member and owner values: reported by key, written anew by their holder, the owner named again", async () => {
    const [one, two] = shared as [HaInstance, HaInstance];
    // Both joined and each task held by the one rendezvous hashing ranks first: no lock moves any more.
    const owners = await until("ownership settled", async () => {
      const members = await liveMembers(consul.url, "damaged-shared");
      const current = await taskOwners(consul.url, "damaged-shared");
      return members.length === 2 && settledOwners(current, ["rec-a", "rec-b"], members) ? current : undefined;
    }, 60_000);
    const member = `${root("damaged-shared")}/members/${two.id}`;
    await kvPut(member, "{not json");
    await until("the damaged member value reported", () => (reportedBySome(shared, member) ? true : undefined), 30_000);
    await until("member value written anew", async () => ((await storedId(member)) === two.id ? true : undefined), 30_000);

    const ownerOfA = owners.get("rec-a")!;
    const holder = shared.find((instance) => instance.id === ownerOfA)!;
    const other = shared.find((instance) => instance !== holder)!;
    const owner = `${root("damaged-shared")}/owners/rec-a`;
    await kvPut(owner, "[]");
    await until("the damaged owner value reported", () => (reportedBySome(shared, owner) ? true : undefined), 30_000);
    await until("owner value written anew", async () => ((await storedId(owner)) === holder.id ? true : undefined), 30_000);
    await until("the other instance naming the owner again", async () =>
      ((await other.api("GET", "/v1/status/cluster"))?.json["task_owners"] as Record<string, string> | undefined)?.["rec-a"] === holder.id ? true : undefined, 30_000);
    for (const key of [member, owner]) {
      await until(`${key} no longer listed`, async () => ((await noDamageListed(shared, key)) ? true : undefined), 30_000);
    }
    expect(one.running && two.running).toBe(true);
  }, 90_000);
});
