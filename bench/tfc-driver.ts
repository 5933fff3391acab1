/**
 * @module Benchmark: the terraform-cloud driver against the embedded HCP Terraform server, which
 * enforces HCP Terraform's limit of 30 API requests a second per token and runs the real terraform.
 *
 * Run:  npm run bench -- tfc-driver   (or: npx deno run -A bench/tfc-driver.ts)
 * Environment: TFC_BENCH_CHANGES (default 100), TFC_BENCH_TASKS (default 1000), TFC_BENCH_RUNS
 * (how many runs the server executes at once, default 4).
 *
 * 1. One task, `changes` input changes one after another: API requests per change by kind,
 *    change → run queued and change → run applied (p50/p99), a restart with unchanged inputs, and a
 *    plain `terraform apply` of the same module with the same change.
 * 2. Scale: `tasks` tasks (one driver block, so one request budget) set up at once, then all their
 *    inputs change at once: time until every run is applied, requests sent, 429s received, runs
 *    failed, requests per change, and change → run queued / applied (p50/p99).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Driver, LogFields, Logger } from "../core/plugin-api/mod.ts";
import { startTfcDevServer, type TfcDevServer } from "../dev-servers/tfc/mod.ts";
import { createFileSystem } from "../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../core/runtime/http-client.ts";
import { terraformRootModule } from "../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { driverBlock, inputsOf, task, writeModule } from "../harness/driver-terraform-cloud/tfc-fixtures.ts";

const changes = Number(process.env.TFC_BENCH_CHANGES) || 100;
const taskCount = Number(process.env.TFC_BENCH_TASKS) || 1000;
const concurrentRuns = Number(process.env.TFC_BENCH_RUNS) || 4;
const signal = new AbortController().signal;

/** A silent logger that notes when each task's run was queued. */
const queuedAt = new Map<string, number>();
const logger: Logger = {
  name: "driver.tfc",
  trace() {}, debug() {}, warn() {}, error() {},
  info(message: string, fields?: LogFields) {
    if (message === "queued run") queuedAt.set(String(fields?.task_name), performance.now());
  },
  child: () => logger,
};

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
const ms = (value: number) => value.toFixed(0);

function factoryFor() {
  return createTerraformCloudDriverFactory({ http: createHttpClientFactory(), fs: createFileSystem(), logger, env: {}, rootModule: terraformRootModule });
}

async function oneTask(server: TfcDevServer, module: ReturnType<typeof writeModule>, plain: string): Promise<void> {
  const block = driverBlock(server);
  const factory = factoryFor();
  const create = () => factory.create(task("bench", module.dir), { driver: block, providers: [], consul: {} as never, workingDir: "", logger, inputs: [] });
  const driver = await create();
  await driver.init(signal);
  await driver.render(inputsOf("w-0"), signal);
  await driver.apply(signal);
  const client = await factory.clientFor(block);

  const totals = new Map<string, number>();
  const queued: number[] = [];
  const applied: number[] = [];
  for (let i = 1; i <= changes; i++) {
    const before = new Map(client.requestCounts);
    const started = performance.now();
    await driver.render(inputsOf("w-0", `w-${i}`), signal);
    await driver.apply(signal);
    applied.push(performance.now() - started);
    queued.push(queuedAt.get("bench")! - started);
    for (const [kind, count] of client.requestCounts) totals.set(kind, (totals.get(kind) ?? 0) + count - (before.get(kind) ?? 0));
  }
  // A restart (or a new HA leader) with unchanged inputs: init, then the first apply queues nothing.
  const initBefore = client.requests;
  const restarted = await create();
  await restarted.init(signal);
  const restartInit = client.requests - initBefore;
  await restarted.render(inputsOf("w-0", `w-${changes}`), signal);
  const unchangedBefore = client.requests;
  if (await restarted.apply(signal) !== undefined) throw new Error("a restart with unchanged inputs queued a run");
  const unchanged = client.requests - unchangedBefore;

  // The same module applied by hand, with the same kind of change each time.
  writeFileSync(join(plain, "main.tf"), `variable "services" {\n  type = map(any)\n}\nmodule "bench" {\n  source   = ${JSON.stringify(module.dir)}\n  services = var.services\n}\n`);
  const run = promisify(execFile);
  await run("terraform", ["init", "-input=false", "-no-color"], { cwd: plain });
  const byHand: number[] = [];
  for (let i = 1; i <= Math.min(changes, 20); i++) {
    writeFileSync(join(plain, "terraform.tfvars.json"), JSON.stringify({ services: { [`w-${i}`]: {} } }));
    const started = performance.now();
    await run("terraform", ["apply", "-input=false", "-no-color", "-auto-approve"], { cwd: plain });
    byHand.push(performance.now() - started);
  }

  console.log(`### One task, ${changes} input changes one after another\n`);
  console.log("| API requests per change | mean |\n|---|---:|");
  for (const [kind, count] of [...totals].filter(([, count]) => count > 0).sort()) console.log(`| ${kind} | ${(count / changes).toFixed(2)} |`);
  console.log(`| all | ${([...totals.values()].reduce((a, b) => a + b, 0) / changes).toFixed(2)} |`);
  console.log(`| restart: init (reads only) | ${restartInit} |`);
  console.log(`| restart: first apply, inputs unchanged (workspace, upload, no run queued) | ${unchanged} |\n`);
  console.log("| latency | p50 ms | p99 ms |\n|---|---:|---:|");
  console.log(`| change → run queued | ${ms(percentile(queued, 50))} | ${ms(percentile(queued, 99))} |`);
  console.log(`| change → run applied | ${ms(percentile(applied, 50))} | ${ms(percentile(applied, 99))} |`);
  console.log(`| plain terraform apply (${byHand.length} runs) | ${ms(percentile(byHand, 50))} | ${ms(percentile(byHand, 99))} |\n`);
}

interface Wave {
  readonly seconds: number;
  readonly requests: number;
  readonly refused: number;
  readonly failed: number;
  readonly queued: number[];
  readonly applied: number[];
}

/** Every driver applies its rendered inputs at once; measured until the last run ends. */
async function wave(drivers: Driver[], names: string[], inputs: (i: number) => ReturnType<typeof inputsOf>, count: () => number, refused: () => number): Promise<Wave> {
  queuedAt.clear();
  const requestsBefore = count();
  const refusedBefore = refused();
  const started = performance.now();
  const applied: number[] = [];
  let failed = 0;
  await Promise.all(drivers.map(async (driver, i) => {
    await driver.render(inputs(i), signal);
    try {
      const result = await driver.apply(signal);
      if (result?.unapplied !== undefined) failed++;
      else applied.push(performance.now() - started);
    } catch (error) {
      failed++;
      if (failed <= 3) console.error(`run failed: ${(error as Error).message}`);
    }
  }));
  return {
    seconds: (performance.now() - started) / 1000,
    requests: count() - requestsBefore,
    refused: refused() - refusedBefore,
    failed,
    queued: names.map((name) => queuedAt.get(name)).filter((at): at is number => at !== undefined).map((at) => at - started),
    applied,
  };
}

async function scale(module: ReturnType<typeof writeModule>): Promise<void> {
  const server = await startTfcDevServer({ maxConcurrentRuns: concurrentRuns });
  try {
    const block = driverBlock(server);
    const factory = factoryFor();
    const names = Array.from({ length: taskCount }, (_, i) => `scale-${i}`);
    const drivers = await Promise.all(names.map((name) =>
      factory.create(task(name, module.dir), { driver: block, providers: [], consul: {} as never, workingDir: "", logger, inputs: [] })));
    const client = await factory.clientFor(block);
    const count = () => client.requests;
    const refused = () => server.rateLimiter.refused;
    const initStarted = performance.now();
    await Promise.all(drivers.map((driver) => driver.init(signal)));
    const initSeconds = (performance.now() - initStarted) / 1000;
    const initRequests = count();
    const setup = await wave(drivers, names, (i) => inputsOf(`s-${i}`), count, refused);
    const change = await wave(drivers, names, (i) => inputsOf(`s-${i}`, `c-${i}`), count, refused);

    console.log(`### ${taskCount} tasks, one driver block (one budget), tfc-dev at 30 API requests/s per token, ${concurrentRuns} runs at once\n`);
    console.log("| | start-up (workspaces, uploads, first runs) | all inputs change at once |\n|---|---:|---:|");
    console.log(`| time until every run applied | ${setup.seconds.toFixed(1)} s | ${change.seconds.toFixed(1)} s |`);
    console.log(`| API requests sent | ${setup.requests} | ${change.requests} |`);
    console.log(`| requests per task | ${(setup.requests / taskCount).toFixed(2)} | ${(change.requests / taskCount).toFixed(2)} |`);
    console.log(`| requests a second (mean) | ${(setup.requests / setup.seconds).toFixed(1)} | ${(change.requests / change.seconds).toFixed(1)} |`);
    console.log(`| 429s received | ${setup.refused} | ${change.refused} |`);
    console.log(`| runs failed | ${setup.failed} | ${change.failed} |`);
    const seconds = (values: number[]) => `${(percentile(values, 50) / 1000).toFixed(1)} / ${(percentile(values, 99) / 1000).toFixed(1)} s`;
    console.log(`| change → run queued p50 / p99 | ${seconds(setup.queued)} | ${seconds(change.queued)} |`);
    console.log(`| change → run applied p50 / p99 | ${seconds(setup.applied)} | ${seconds(change.applied)} |`);
    console.log(`| init before it (reads only): requests, time | ${initRequests}, ${initSeconds.toFixed(1)} s | |`);
  } finally {
    await server.stop();
  }
}

const server = await startTfcDevServer();
const module = writeModule();
const plain = mkdtempSync(join(tmpdir(), "cts-bench-tfc-plain-"));
try {
  await oneTask(server, module, plain);
  await server.stop();
  await scale(module);
} finally {
  await server.stop();
  module.remove();
  rmSync(plain, { recursive: true, force: true });
}
