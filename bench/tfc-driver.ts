/**
 * @module Benchmark: the terraform-cloud driver against the embedded HCP Terraform server.
 *
 * Run:  npm run bench -- tfc-driver   (or: npx deno run -A bench/tfc-driver.ts [changes])
 * One task; after a first apply, `changes` (default 100) input changes, each applied through the
 * driver (variables written, one run queued, followed until applied by the server's real terraform).
 * Reports the API requests per trigger by kind, change → run queued and change → run applied
 * (p50/p99), and a plain `terraform apply -auto-approve` of the same module with the same change.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { LogFields, Logger } from "../core/plugin-api/mod.ts";
import { startTfcDevServer } from "../core/dev-servers/tfc/mod.ts";
import { createFileSystem } from "../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../core/runtime/http-client.ts";
import { terraformRootModule } from "../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { driverBlock, inputsOf, task, writeModule } from "../test/plugins/driver-terraform-cloud/tfc-fixtures.ts";

const changes = Number(process.argv[2]) || 100;
const signal = new AbortController().signal;

/** A silent logger that notes when "queued run" is logged. */
let queuedAt = 0;
const logger: Logger = {
  name: "driver.tfc",
  trace() {}, debug() {}, warn() {}, error() {},
  info(message: string, _fields?: LogFields) {
    if (message === "queued run") queuedAt = performance.now();
  },
  child: () => logger,
};

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

const server = await startTfcDevServer();
const module = writeModule();
const plain = mkdtempSync(join(tmpdir(), "cts-bench-tfc-plain-"));
try {
  const block = driverBlock(server);
  const factory = createTerraformCloudDriverFactory({ http: createHttpClientFactory(), fs: createFileSystem(), logger, env: {}, rootModule: terraformRootModule });
  const driver = await factory.create(task("bench", module.dir), { driver: block, providers: [], consul: {} as never, workingDir: "", logger, inputs: [] });
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
    queued.push(queuedAt - started);
    for (const [kind, count] of client.requestCounts) totals.set(kind, (totals.get(kind) ?? 0) + count - (before.get(kind) ?? 0));
  }
  // A restart (or a new HA leader) with unchanged inputs: init, then the first apply queues nothing.
  const initBefore = client.requests;
  const restarted = await factory.create(task("bench", module.dir), { driver: block, providers: [], consul: {} as never, workingDir: "", logger, inputs: [] });
  await restarted.init(signal);
  const restartInit = client.requests - initBefore;
  await restarted.render(inputsOf("w-0", `w-${changes}`), signal);
  const unchangedBefore = client.requests;
  const result = await restarted.apply(signal);
  const unchanged = client.requests - unchangedBefore;
  if (result !== undefined) throw new Error("a restart with unchanged inputs queued a run");

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

  console.log(`terraform-cloud driver, ${changes} input changes, embedded HCP Terraform server (real terraform runs)\n`);
  console.log("| API requests per change | mean |\n|---|---:|");
  for (const [kind, count] of [...totals].filter(([, count]) => count > 0).sort()) console.log(`| ${kind} | ${(count / changes).toFixed(2)} |`);
  console.log(`| all | ${([...totals.values()].reduce((a, b) => a + b, 0) / changes).toFixed(2)} |`);
  console.log(`| restart: init (workspace, tags, upload) | ${restartInit} |`);
  console.log(`| restart: first apply, inputs unchanged (no run queued) | ${unchanged} |\n`);
  console.log("| latency | p50 ms | p99 ms |\n|---|---:|---:|");
  console.log(`| change → run queued | ${percentile(queued, 50).toFixed(0)} | ${percentile(queued, 99).toFixed(0)} |`);
  console.log(`| change → run applied | ${percentile(applied, 50).toFixed(0)} | ${percentile(applied, 99).toFixed(0)} |`);
  console.log(`| plain terraform apply (${byHand.length} runs) | ${percentile(byHand, 50).toFixed(0)} | ${percentile(byHand, 99).toFixed(0)} |`);
} finally {
  await server.stop();
  module.remove();
  rmSync(plain, { recursive: true, force: true });
}
