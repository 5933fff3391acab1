/**
 * The run history in Consul KV (beyond CTS) over real HTTP, through a proxy that records every
 * exchange: a record is a small summary key plus a detail key (output, resources, outputs); a page
 * reads the key listing and the summaries it shows, never the details and never the other records;
 * a detail past Consul's value limit is cut to fit and says how much went; pruning deletes both keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../../core/plugin-api/mod.ts";
import { sampleRun } from "../../../core/plugin-testkit/mod.ts";
import type { ClosableConsulClient } from "../../../plugins/consul-client/mod.ts";
import { ConsulTaskStore } from "../../../plugins/ha-consul/src/consul-task-store.ts";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { testClient } from "../../../harness/consul-client/client-options.ts";
import { layoutOf, startHaConsul } from "../../../harness/ha-consul/ha-harness.ts";
import { type RecordingProxy, startRecordingProxy } from "../../../harness/ha-consul/recording-proxy.ts";

let consul: TestConsulDevServer;
let proxy: RecordingProxy;
let client: ClosableConsulClient;
const keep = { maxRunsPerTask: 1000, maxAgeMs: 24 * 3600_000 };

beforeAll(async () => {
  consul = await startHaConsul();
  proxy = await startRecordingProxy({ hostname: "127.0.0.1", port: consul.port });
  client = (await testClient(proxy.address)).client;
});
afterAll(async () => {
  client?.close();
  await proxy?.close();
  await consul?.stop();
});

function detailed(task: string, minutesAgo: number, n: number, logBytes = 2000): RunRecord {
  return {
    ...sampleRun(task, minutesAgo, n),
    logs: { plan: { text: "p".repeat(logBytes), bytes: logBytes }, apply: { text: "a".repeat(logBytes), bytes: logBytes } },
    resources: [{ address: `module.${task}.thing[${n}]`, action: "create" }],
    outputs: { ids: { value: [n] }, token: { sensitive: true } },
  };
}

/** What the store read from Consul while `work` ran: each read's path (and whether it listed keys) and the bytes. */
async function readsDuring(work: () => Promise<unknown>): Promise<{ paths: string[]; bytes: number }> {
  const from = proxy.exchanges.length;
  await work();
  const reads = proxy.exchanges.slice(from).filter((exchange) => exchange.method === "GET");
  return {
    paths: reads.map((exchange) => `${exchange.path}${exchange.query.has("keys") ? "?keys" : ""}`),
    bytes: reads.reduce((sum, exchange) => sum + exchange.bytes, 0),
  };
}

describe("run history in Consul KV", () => {
  it("a page reads the key listing and the summaries it shows, nothing else; one record reads its summary and detail", async () => {
    const store = new ConsulTaskStore(client, layoutOf("history-reads"));
    const layout = layoutOf("history-reads");
    const runs = Array.from({ length: 60 }, (_, n) => detailed("web", 120 - n, n));
    for (const run of runs) await store.putRun(run, keep);
    // A summary key and a detail key each.
    expect((await client.kvGet(layout.runKey("web", runs[0]!.id)))!.value).not.toContain("pppp");
    expect((await client.kvGet(layout.runDetailKey("web", runs[0]!.id)))!.value).toContain("pppp");

    let page!: Awaited<ReturnType<ConsulTaskStore["listRuns"]>>;
    const listed = await readsDuring(async () => (page = await store.listRuns("web", { limit: 5 })));
    expect(page.total).toBe(60);
    expect(page.runs.map((run) => run.id)).toEqual(runs.slice(55).reverse().map((run) => run.id));
    expect(page.runs.every((run) => run.logs === undefined && run.outputs === undefined)).toBe(true);
    const runsPath = `/v1/kv/${layout.taskRunsPrefix("web")}`;
    expect(listed.paths.sort()).toEqual([`${runsPath}?keys`, ...page.runs.map((run) => `${runsPath}${run.id}`)].sort());
    // The older page, from the cursor: the same kind of reads.
    const older = await readsDuring(() => store.listRuns("web", { limit: 5, before: page.next! }));
    expect(older.paths).toHaveLength(6);

    const one = await readsDuring(async () => expect(await store.getRun("web", runs[3]!.id)).toEqual(runs[3]));
    expect(one.paths.sort()).toEqual([`/v1/kv/${layout.runDetailKey("web", runs[3]!.id)}`, `${runsPath}${runs[3]!.id}`].sort());
  });

  it("cuts a detail past Consul's value limit to fit, and the record says how much output went", async () => {
    const store = new ConsulTaskStore(client, layoutOf("history-fit"));
    // JSON doubles a quote's size: 3 × 200 KB of them cannot be one value as they are.
    const quotes = "\"".repeat(200_000);
    const run: RunRecord = {
      ...sampleRun("big", 1),
      logs: { init: { text: quotes, bytes: 200_000 }, plan: { text: quotes, bytes: 200_000 }, apply: { text: `${quotes}\nError: the end`, bytes: 200_014 } },
      outputs: { list: { value: Array.from({ length: 2000 }, (_, n) => `value-${n}`) } },
    };
    await store.putRun(run, keep);
    const stored = (await store.getRun("big", run.id))!;
    const detail = await client.kvGet(layoutOf("history-fit").runDetailKey("big", run.id));
    expect(new TextEncoder().encode(detail!.value).byteLength).toBeLessThanOrEqual(500 * 1024);
    expect(stored.logs!.apply!.text).toMatch(/^"+\n… [\d,]+ bytes of output left out here \(Consul value limit\) …\n"+\nError: the end$/);
    expect(stored.logs!.apply!.omitted_bytes).toBeGreaterThan(0);
    expect(stored.logs!.apply!.bytes).toBe(200_014);
    expect(stored.outputs).toEqual(run.outputs);
  });

  it("pruning deletes the summary and the detail of each record past the retention", async () => {
    const layout = layoutOf("history-prune");
    const store = new ConsulTaskStore(client, layout);
    const old = detailed("t", 300, 1);
    const young = detailed("t", 5, 2);
    await store.putRun(old, keep);
    await store.putRun(young, keep);
    await store.pruneRuns("t", { maxRunsPerTask: 100, maxAgeMs: 60 * 60_000 });
    expect((await store.listRuns("t", { limit: 10 })).runs.map((run) => run.id)).toEqual([young.id]);
    expect(await client.kvGet(layout.runKey("t", old.id))).toBeUndefined();
    expect(await client.kvGet(layout.runDetailKey("t", old.id))).toBeUndefined();
    expect(await client.kvGet(layout.runDetailKey("t", young.id))).toBeDefined();
  });
});
