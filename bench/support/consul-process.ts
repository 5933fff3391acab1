/**
 * @module Bench helper: the embedded Consul server and the counting proxy in a process of their
 * own, so the bench process's memory is the engine's (the server keeps every instance, and the
 * answer of each parked query, which would otherwise count as engine memory).
 *
 * Instances are written straight into the server's catalog in batches (one index per batch;
 * 100 000 HTTP registrations would dominate the run time), spread over the tasks' services
 * (`svc-<i % tasks>`) and over 100 nodes. A small control endpoint reports the proxy's request
 * count for those services.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import process from "node:process";
import { createInterface } from "node:readline";
import type { ConsulState } from "../../dev-servers/consul/src/state/consul-state.ts";
import { startConsulDevServer } from "../../harness/consul-dev-server.ts";
import { startCountingProxy } from "../../harness/task-engine/counting-proxy.ts";

const NODES = 100;
const BATCH = 5000;

export interface ConsulProcess {
  /** The server itself (changes are registered here, not through the proxy). */
  readonly url: string;
  /** host:port of the counting proxy (what the engine talks to). */
  readonly proxyAddress: string;
  /** Requests to the tasks' health queries seen by the proxy since the last reset. */
  total(): Promise<number>;
  reset(): Promise<void>;
  stop(): void;
}

/** Writes `count` instances (and their nodes) into the catalog, `BATCH` per write. */
export function registerInBulk(state: ConsulState, count: number, taskCount: number): void {
  state.write((tx) => {
    for (let n = 0; n < NODES; n++) {
      const node = `bench-node-${n}`;
      state.catalog.putNode(tx, {
        id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, node, address: `10.2.0.${n}`,
        datacenter: state.datacenter, taggedAddresses: { lan: `10.2.0.${n}` }, meta: {},
      });
    }
  });
  for (let start = 0; start < count; start += BATCH) {
    state.write((tx) => {
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        state.catalog.putService(tx, {
          node: `bench-node-${i % NODES}`, id: `inst-${i}`, service: `svc-${i % taskCount}`, kind: "", tags: ["bench"],
          address: "10.1.0.1", taggedAddresses: {}, meta: {}, port: 80, weights: { Passing: 1, Warning: 1 },
          enableTagOverride: false,
        });
      }
    });
  }
}

export async function startConsulProcess(taskCount: number, instanceCount: number): Promise<ConsulProcess> {
  const self = new URL(import.meta.url).pathname;
  const args = "Deno" in globalThis ? ["run", "-A", "-q", self] : [self];
  const child = spawn(process.execPath, [...args, "--serve", String(taskCount), String(instanceCount)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  const { url, proxyAddress, control } = JSON.parse(line) as { url: string; proxyAddress: string; control: string };
  return {
    url,
    proxyAddress,
    total: async () => Number(await (await fetch(`${control}/total`)).text()),
    reset: async () => void await (await fetch(`${control}/reset`, { method: "POST" })).text(),
    stop: () => child.stdin!.end(),
  };
}

async function serve(taskCount: number, instanceCount: number): Promise<void> {
  const server = await startConsulDevServer();
  registerInBulk(server.state, instanceCount, taskCount);
  const proxy = await startCountingProxy({ hostname: "127.0.0.1", port: server.port });
  const total = () => {
    let sum = 0;
    for (let i = 0; i < taskCount; i++) sum += proxy.count(`/v1/health/service/svc-${i}`);
    return sum;
  };
  const control = createServer((request, response) => {
    if (request.url === "/reset") proxy.reset();
    response.end(request.url === "/total" ? String(total()) : "");
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const port = (control.address() as AddressInfo).port;
  console.log(JSON.stringify({ url: server.url, proxyAddress: proxy.address, control: `http://127.0.0.1:${port}` }));
  await new Promise<void>((resolve) => process.stdin.on("end", resolve).resume());
  control.close();
  await proxy.close();
  await server.stop();
  process.exit(0);
}

const at = process.argv.indexOf("--serve");
if (at >= 0) await serve(Number(process.argv[at + 1]), Number(process.argv[at + 2]));
