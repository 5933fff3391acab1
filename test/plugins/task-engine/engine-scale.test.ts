/**
 * Issue 16 (scale): at 1,000 tasks the engine keeps exactly one blocking query per distinct Consul
 * query (CTS's hcat shares one view per dependency the same way), a change reaches only the tasks of
 * the changed service, the change costs requests on that query alone, and Node sees no "listener
 * leak" in 1,000 tasks sharing the engine's stop signal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearRecordingLog, recorded } from "../../../harness/driver-recording/mod.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { startCountingProxy, type CountingProxy } from "../../../harness/task-engine/counting-proxy.ts";
import { engineConfig, type Harness, registerInstance, servicesTask, startEngine, waitFor } from "../../../harness/task-engine/engine-harness.ts";

const TASKS = 1000;
const SERVICES = 100;

let server: Awaited<ReturnType<typeof startConsulDevServer>>;
let proxy: CountingProxy;
let harness: Harness | undefined;
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

beforeAll(async () => {
  process.on("warning", onWarning);
  server = await startConsulDevServer();
  proxy = await startCountingProxy({ hostname: "127.0.0.1", port: server.port });
  for (let i = 0; i < SERVICES; i++) await registerInstance(server.url, `scale-${i}`, `scale-${i}-a`);
});

afterAll(async () => {
  process.off("warning", onWarning);
  await harness?.stop();
  await proxy?.close();
  await server?.stop();
});

const path = (service: number) => `/v1/health/service/scale-${service}`;

describe("the engine at 1,000 tasks", () => {
  it("keeps one blocking query per distinct query and wakes only the changed service's tasks", async () => {
    clearRecordingLog();
    // Task i watches service i % 100: ten tasks share each query.
    const tasks = Array.from({ length: TASKS }, (_, i) => servicesTask(`scale-task-${i}`, [`scale-${i % SERVICES}`]));
    harness = await startEngine({
      config: engineConfig(proxy.address, tasks, { log_level: "WARN" }),
      recording: { keep_inputs: false },
    });
    await waitFor(() => recorded("apply").length >= TASKS, "every task's first run", 60_000);
    await harness.manager.idle();
    expect(harness.watcher.stats()).toEqual({ open: SERVICES, subscribers: TASKS });
    // Every query has re-parked after its first answer, and never had two requests open at once.
    await waitFor(() => server.state.hub.size >= SERVICES, "all queries parked", 30_000);
    for (let i = 0; i < SERVICES; i++) expect(proxy.maxInFlight(path(i)), path(i)).toBe(1);

    proxy.reset();
    clearRecordingLog();
    await registerInstance(server.url, "scale-7", "scale-7-b");
    const changed = tasks.filter((_, i) => i % SERVICES === 7).map((task) => task.name);
    await waitFor(() => changed.every((name) => recorded("apply", name).length === 1), "the ten tasks of scale-7 ran", 30_000);
    await harness.manager.idle();
    await waitFor(() => server.state.hub.size >= SERVICES, "the woken query parked again", 30_000);
    expect(recorded("apply").map((entry) => entry.task).sort()).toEqual([...changed].sort());
    // The change cost one answer and one re-park on its own query, nothing on the 99 others.
    expect(proxy.count(path(7))).toBe(1);
    for (let i = 0; i < SERVICES; i++) if (i !== 7) expect(proxy.count(path(i)), path(i)).toBe(0);
    expect(harness.watcher.stats()).toEqual({ open: SERVICES, subscribers: TASKS });
    // Warnings are emitted on a later tick: give them one before looking.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  }, 120_000);
});
