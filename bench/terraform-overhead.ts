/**
 * @module Benchmark: what the Terraform driver adds around a no-op apply.
 *
 * Run:  npx deno run -A bench/terraform-overhead.ts [runs]
 * Sets up the demo module's task with the real driver (state in the embedded Consul's KV), applies
 * once, then times `runs` no-op runs two ways, interleaved:
 *   - driver:  render(terraform.tfvars) + apply through the driver (process runner, env, checks);
 *   - by hand: the same `terraform apply -no-color -auto-approve ...` spawned directly in the
 *     same working directory with the same environment.
 * Overhead = driver − by hand (median). Also reports init (init + workspace + validate) once.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileSystem } from "../core/runtime/file-system.ts";
import { createProcessRunner } from "../core/runtime/process-runner.ts";
import { createTerraformDriverFactory } from "../plugins/driver-terraform/src/driver-factory.ts";
import { applyArgs, terraformEnvironment } from "../plugins/driver-terraform/src/terraform-commands.ts";
import { consulEnvironment } from "../plugins/driver-terraform/src/backend.ts";
import { startConsulDevServer } from "../harness/consul-dev-server.ts";
import { captureLogger } from "../harness/driver-terraform/capture-logger.ts";
import { consulConfig, inputsFor, instance, taskConfig } from "../harness/driver-terraform/fixtures.ts";
import { terraformTestEnv } from "../harness/driver-terraform/terraform-env.ts";

const runs = Number(process.argv[2]) || 10;

for (const [key, value] of Object.entries(terraformTestEnv())) process.env[key] = value;
const dir = mkdtempSync(join(tmpdir(), "cts-bench-overhead-"));
const consul = await startConsulDevServer();
const config = consulConfig({ address: consul.address });
const signal = new AbortController().signal;
try {
  const factory = createTerraformDriverFactory({ processes: createProcessRunner(), fs: createFileSystem(dir), logger: captureLogger() });
  const workingDir = join(dir, "work");
  const task = taskConfig({
    name: "bench", module: decodeURIComponent(new URL("../examples/demo/module", import.meta.url).pathname),
    variables: { output_file: JSON.stringify(join(dir, "services.txt")) },
  });
  const driver = await factory.create(task, {
    driver: { name: "terraform", options: {} }, providers: [], consul: config, workingDir, logger: captureLogger(),
    inputs: [{ variable: "services", block: "condition", type: "services", triggers: true }],
  });
  const inputs = inputsFor(Array.from({ length: 10 }, (_, i) => instance(`web-${i}`, `n${i}`)));
  let started = performance.now();
  await driver.init(signal);
  const initMs = performance.now() - started;
  await driver.render(inputs, signal);
  await driver.apply(signal);

  const env = { ...process.env, ...terraformEnvironment({ providerEnv: [], consulEnv: consulEnvironment(config) }) };
  const viaDriver: number[] = [];
  const byHand: number[] = [];
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    await driver.render(inputs, signal);
    await driver.apply(signal);
    viaDriver.push(performance.now() - started);
    started = performance.now();
    // Asynchronously: the embedded Consul serving the state runs in this very process.
    await promisify(execFile)("terraform", applyArgs(), { cwd: workingDir, env, encoding: "utf8" });
    byHand.push(performance.now() - started);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const rows = [
    ["init + workspace + validate (once)", initMs.toFixed(0), ""],
    ["no-op run via driver (render + apply)", median(viaDriver).toFixed(0), `${Math.min(...viaDriver).toFixed(0)}–${Math.max(...viaDriver).toFixed(0)}`],
    ["same terraform apply by hand", median(byHand).toFixed(0), `${Math.min(...byHand).toFixed(0)}–${Math.max(...byHand).toFixed(0)}`],
    ["driver overhead (median difference)", (median(viaDriver) - median(byHand)).toFixed(0), ""],
  ];
  console.log(`Terraform driver overhead, ${runs} interleaved no-op runs, state in the embedded Consul`);
  console.log("| step | median ms | range ms |\n|---|---:|---:|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
} finally {
  await consul.stop();
  rmSync(dir, { recursive: true, force: true });
}
