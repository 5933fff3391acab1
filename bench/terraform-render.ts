/**
 * @module Benchmark: time to render terraform.tfvars (the escaped HCL the Terraform driver writes
 * per run) for 10, 1 000, 10 000 and 100 000 service instances.
 *
 * Run:  npx deno run -A bench/terraform-render.ts     (or node after a build: node dist/bench/...)
 * Each instance has realistic fields (meta, tags, tagged addresses). Reports the median and p95
 * of repeated renders after warm-up of plain (unfrozen) instances, i.e. every entry encoded afresh,
 * the output size, throughput in instances per ms, and the median of what a run after a Consul
 * change renders: instances as the services source hands them over (deeply frozen, unchanged ones
 * kept as the same objects), one instance replaced between renders.
 */
import type { ServiceInstance, TaskInputs } from "../core/plugin-api/mod.ts";
import { renderTfvars } from "../plugins/driver-terraform/src/render-tfvars.ts";

function inputs(count: number): TaskInputs {
  const services: Record<string, ServiceInstance> = {};
  for (let i = 0; i < count; i++) {
    const node = `node-${i % 50}`;
    const id = `svc-${i % 20}-${i}`;
    services[`${id}.${node}.dc1`] = {
      id, name: `svc-${i % 20}`, kind: "", address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, port: 8000 + (i % 100),
      meta: { version: `1.${i % 7}`, owner: "team \"blue\"", path: "/srv/${app}" },
      tags: ["prod", `zone-${i % 3}`], namespace: "", status: i % 10 === 0 ? "warning" : "passing",
      node, node_id: `0000-${node}`, node_address: `10.0.${i % 50}.1`, node_datacenter: "dc1",
      node_tagged_addresses: { lan: `10.0.${i % 50}.1`, wan: `192.0.2.${i % 50}` }, node_meta: { rack: `r${i % 5}` },
      cts_user_defined_meta: {},
    };
  }
  return { services };
}

function deepFreeze(instance: ServiceInstance): ServiceInstance {
  for (const value of Object.values(instance)) if (typeof value === "object" && value !== null) Object.freeze(value);
  return Object.freeze(instance);
}

/** Median ms of renders where one frozen instance changed since the previous render. */
function afterOneChange(data: TaskInputs, iterations: number): number {
  const services = Object.fromEntries(Object.entries(structuredClone(data.services)).map(([k, v]) => [k, deepFreeze(v)]));
  const keys = Object.keys(services);
  renderTfvars("bench", "", { services });
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const key = keys[(i * 7919) % keys.length]!;
    services[key] = deepFreeze({ ...structuredClone(services[key]!), port: 9000 + i });
    const started = performance.now();
    renderTfvars("bench", "", { services });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 0.5);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

const rows: string[][] = [];
for (const count of [10, 1_000, 10_000, 100_000]) {
  const data = inputs(count);
  const iterations = count >= 100_000 ? 5 : count >= 10_000 ? 20 : count >= 1_000 ? 100 : 2_000;
  for (let i = 0; i < Math.min(iterations, 20); i++) renderTfvars("bench", "", data);
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    size = renderTfvars("bench", "", data).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = percentile(times, 0.5);
  rows.push([
    count.toLocaleString("en-US"), String(iterations), median.toFixed(3), percentile(times, 0.95).toFixed(3),
    (size / 1024).toFixed(0), (count / median).toFixed(0), afterOneChange(data, Math.min(iterations, 20)).toFixed(3),
  ]);
}

const header = ["instances", "renders", "median ms", "p95 ms", "size KiB", "instances/ms", "after 1 change: median ms"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(" | ")} |`;
console.log(`terraform.tfvars render (${typeof (globalThis as { Deno?: unknown }).Deno === "undefined" ? "node" : "deno"})`);
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const row of rows) console.log(line(row));
