/**
 * The consul-dev-server plugin, loaded by path through the kernel like any plugin block.
 * @integration: the plugin serves Consul on a real port.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, expect, it } from "vitest";
import { createKernel, type Kernel } from "../../../core/kernel/kernel.ts";
import { daemonRun, recordingLogSink, testConfig } from "../../core/kernel/kernel-fixtures.ts";

const modPath = resolve(import.meta.dirname, "../../../dev-servers/consul/plugin.ts");
let kernel: Kernel | undefined;
let dir: string | undefined;

afterEach(async () => {
  await kernel?.stop();
  kernel = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("serves Consul from kernel start to stop and writes its snapshot", async () => {
  dir = await mkdtemp(join(tmpdir(), "consul-plugin-"));
  const snapshot = join(dir, "consul.json");
  const logs = recordingLogSink();
  kernel = await createKernel({
    config: testConfig({ plugins: [{ name: "consul", source: modPath, options: { port: 0, node: "plugged", snapshot } }] }),
    runOptions: daemonRun,
    logSink: logs,
    builtins: [],
  });
  await kernel.start();
  const line = logs.lines.find((l) => l.includes("embedded Consul-compatible server listening"));
  expect(line).toBeDefined();
  const address = /address=(\S+)/.exec(line!)![1]!;
  const base = `http://${address}`;
  expect((await (await fetch(`${base}/v1/agent/self`)).json() as { Config: { NodeName: string } }).Config.NodeName)
    .toBe("plugged");
  expect(await (await fetch(`${base}/v1/kv/plugin/k`, { method: "PUT", body: "v" })).json()).toBe(true);
  await kernel.stop();
  kernel = undefined;
  await expect(fetch(`${base}/v1/status/leader`)).rejects.toThrow();
  expect(await readFile(snapshot, "utf8")).toContain("plugin/k");
});
