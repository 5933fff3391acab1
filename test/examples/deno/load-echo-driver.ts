/**
 * @module Run by test/examples/cts-driver-echo.test.ts under `deno run -A`: boots a kernel that
 * loads the example driver by path, applies one task's inputs, and prints what happened as JSON.
 */
import { driverRegistryToken, type TaskConfig } from "../../../core/plugin-api/mod.ts";
import { createKernel } from "../../../core/kernel/kernel.ts";
import { daemonRun, recordingLogSink, testConfig } from "../../core/kernel/kernel-fixtures.ts";

// Typed loosely so that tsc (Node types) checks this file too.
const [exampleDir, workingDir] = (globalThis as unknown as { Deno: { args: string[] } }).Deno.args as [string, string];
const kernel = await createKernel({
  config: testConfig({ plugins: [{ name: "echo", source: exampleDir, options: {} }] }),
  runOptions: daemonRun,
  logSink: recordingLogSink(),
  builtins: [],
});
await kernel.start();
const factory = kernel.resolve(driverRegistryToken).get("echo")!;
const driver = await factory.create({ name: "deno-task" } as TaskConfig, {
  driver: { name: "echo", options: {} },
  providers: [],
  consul: testConfig().consul,
  workingDir,
  logger: recordingLogSink().logger("driver.echo"),
  inputs: [],
});
const signal = new AbortController().signal;
await driver.init(signal);
await driver.render({ services: {} }, signal);
await driver.apply(signal);
await kernel.stop();
console.log(JSON.stringify({ runtime: "deno", plugins: kernel.plugins, state: kernel.state }));
