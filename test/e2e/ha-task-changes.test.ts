/**
 * Issue 29 with high availability (real `node dist/main.js start` processes, the embedded Consul, the
 * recording driver): a task from the config files changed at runtime is stored in Consul KV, so the
 * next leader runs the changed task, not its file's version; a destroy on delete runs on the
 * leader only, and a follower answers CTS's redirect error and changes nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import {
  bundleRecordingDriver, failover, type HaInstance, readRecords, recordingDriverHcl, registerService, startCluster, stopCluster, until,
  waitForLeader,
} from "../../harness/ha-consul/ha-cluster.ts";

let consul: TestConsulDevServer;
let dir: string;
let instances: HaInstance[] = [];
let recordFile: string;

beforeAll(async () => {
  consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
  dir = mkdtempSync(join(tmpdir(), "cts-ha-changes-"));
  recordFile = join(dir, "records.jsonl");
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  instances = await startCluster({
    consulAddress: consul.address, cluster: "ha-changes", dir, sessionTtl: "1s", registration: false,
    driverHcl: recordingDriverHcl(await bundleRecordingDriver(dir), recordFile),
    tasksHcl: `task {
  name        = "rec-web"
  description = "as the file says"
  module      = "./mod"
  condition "services" { names = ["web"] }
}
`,
  }, 2);
}, 60_000);

afterAll(async () => {
  await stopCluster(instances);
  await consul?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it("a runtime change is stored in Consul KV and the next leader has it; only the leader destroys", async () => {
  onTestFailed(() => console.log(instances.map((instance) => `--- ${instance.id}\n${instance.output.slice(-3000)}`).join("\n")));
  const leader = await waitForLeader(instances);
  const follower = instances.find((instance) => instance !== leader)!;
  await until("the leader's start-up run", () => (readRecords(recordFile).some((entry) => entry.op === "apply") ? true : undefined), 30_000);

  const change = { description: "changed at runtime", variables: { tier: `"gold"` } };
  const refused = await until("the follower's answer", () => follower.api("PATCH", "/v1/tasks/rec-web", change), 30_000, 100);
  expect(refused?.status).toBe(400);
  expect(JSON.stringify(refused?.json)).toContain("redirect requests to leader");
  // CTS answers 500 "active" while the start-up run finishes: ask again until it is idle.
  const patched = await until("the PATCH to be taken", async () => {
    const answer = await leader.api("PATCH", "/v1/tasks/rec-web?run=now", change);
    return answer?.status === 500 && JSON.stringify(answer.json).includes("is active") ? undefined : answer;
  }, 30_000, 100);
  expect(patched?.status, JSON.stringify(patched?.json)).toBe(200);
  const stored = await (await fetch(`${consul.url}/v1/kv/consul-terraform-sync/?recurse`)).json() as { Key: string; Value: string }[];
  const entry = stored.find((kv) => kv.Key.endsWith("/tasks/rec-web"))!;
  expect(JSON.parse(Buffer.from(entry.Value, "base64").toString("utf8")).config).toMatchObject(change);

  const { next } = await failover(instances, leader, "SIGTERM");
  const task = await until("the new leader's task", async () => {
    const answer = await next.api("GET", "/v1/tasks/rec-web");
    return answer?.status === 200 ? answer.json.task as Record<string, unknown> : undefined;
  }, 30_000);
  expect(task).toMatchObject(change);

  // A loaded machine may delay a session renewal past its 1s TTL: a redirect answer did nothing, ask the leader again.
  const destroyed = await until("the destroy to be taken by the leader", async () => {
    const answer = await next.api("DELETE", "/v1/tasks/rec-web?destroy=true");
    return answer?.status === 400 && JSON.stringify(answer.json).includes("redirect requests to leader") ? undefined : answer;
  }, 30_000, 100);
  expect(destroyed?.status, JSON.stringify(destroyed?.json)).toBe(202);
  const destroys = readRecords(recordFile).filter((record) => record.op === "destroy");
  expect(destroys.map((record) => record.instance)).toEqual([next.id]);
  expect((await next.api("GET", "/v1/tasks/rec-web"))?.status).toBe(404);
  const left = await (await fetch(`${consul.url}/v1/kv/consul-terraform-sync/?recurse`)).json() as { Key: string }[];
  expect(left.some((kv) => kv.Key.endsWith("/tasks/rec-web"))).toBe(false);
}, 120_000);
