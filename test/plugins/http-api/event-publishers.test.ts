/**
 * Who publishes on the daemon's event bus besides the engine, seen through `GET /v1/events` of a
 * real kernel over real HTTP: the standalone leadership once at start, the HA leader election on
 * every change of this instance's leadership, and the Consul client when Consul goes away and
 * comes back (the embedded Consul server really stops and restarts on its port). Beyond CTS.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CtsConfig } from "../../../core/plugin-api/mod.ts";
import type { BuiltinPlugin } from "../../../core/kernel/builtin-plugins.ts";
import { createTestKernel } from "../../../core/plugin-testkit/src/create-test-kernel.ts";
import { testConsulConfig, testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { SseReader } from "../../helpers/sse-reader.ts";
import { recordingDriverPlugin } from "../../../harness/driver-recording/mod.ts";
import { haConfig } from "../../../harness/ha-consul/ha-harness.ts";
import { apiConfig, startApiKernel } from "./helpers/api-kernel.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function consulAt(address: string): CtsConfig["consul"] {
  return testConsulConfig({
    address,
    kv_path: "",
    service_registration: { ...testConsulConfig().service_registration, enabled: false },
  });
}

describe("event publishers", () => {
  it("standalone: the instance announces its leadership once at start", async () => {
    const daemon = await startApiKernel();
    cleanups.push(() => daemon.stop());
    const reader = await SseReader.open(`${daemon.url}/v1/events?last_event_id=0`);
    cleanups.push(() => reader.close());
    await reader.waitFor("ready", (r) => r.events("ready").length === 1);
    expect(reader.events("leadership").map((e) => e.data)).toEqual([
      expect.objectContaining({ type: "leadership", instance_id: "cts-api-test", is_leader: true, leader: { id: "cts-api-test" } }),
    ]);
  });

  it("the Consul client: connection lost when Consul stops, restored when it is back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cts-events-consul-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const snapshotPath = join(dir, "snapshot.json");
    const consul = await startConsulDevServer({ snapshotPath });
    let current = consul;
    cleanups.push(() => current.stop());
    // A services task keeps a blocking query on Consul, so an outage is noticed at once.
    const config = apiConfig({ consul: consulAt(consul.address), tasks: [testTask("web_task", { driver: "recording" })] });
    const daemon = await startApiKernel({ config });
    cleanups.push(() => daemon.stop());
    const reader = await SseReader.open(`${daemon.url}/v1/events`);
    cleanups.push(() => reader.close());
    await reader.waitFor("ready", (r) => r.events("ready").length === 1);

    await consul.stop();
    await reader.waitFor("connection lost", (r) => r.events("consul.connection").length === 1, 20_000);
    const lost = reader.events("consul.connection")[0]!.data;
    expect(lost).toMatchObject({ type: "consul.connection", state: "lost" });
    expect(String(lost.error)).toMatch(/^Cannot /);
    current = await startConsulDevServer({ port: consul.port, snapshotPath });
    await reader.waitFor("connection restored", (r) => r.events("consul.connection").length === 2, 20_000);
    expect(reader.events("consul.connection")[1]!.data).toMatchObject({ type: "consul.connection", state: "restored" });
    expect(reader.events("consul.connection")[1]!.data.error).toBeUndefined();
  }, 60_000);

  it("high availability: the elected instance publishes that it leads", async () => {
    const consul = await startConsulDevServer({ sessionTtlMinMs: 100 });
    cleanups.push(() => consul.stop());
    const builtins: BuiltinPlugin[] = [
      "consul-client", "vault-client", "consul-inputs", "condition-schedule", "task-engine", "ha-consul", "http-api",
    ].map((id) => ({ id, load: () => import(`../../../plugins/${id}/mod.ts`) }));
    const config = apiConfig({ id: "cts-ha-events", consul: consulAt(consul.address), high_availability: haConfig("events") });
    const { kernel } = await createTestKernel({
      config,
      builtins,
      plugins: [recordingDriverPlugin({})],
      kernel: { httpListen: { hostname: "127.0.0.1", port: 0 } },
    });
    cleanups.push(() => kernel.stop());
    const reader = await SseReader.open(`${kernel.httpUrl}/v1/events?last_event_id=0`);
    cleanups.push(() => reader.close());
    await reader.waitFor("leadership", (r) => r.events("leadership").length >= 1, 20_000);
    expect(reader.events("leadership")[0]!.data).toMatchObject({
      type: "leadership", instance_id: "cts-ha-events", is_leader: true, leader: { id: "cts-ha-events" },
    });
  }, 60_000);
});
