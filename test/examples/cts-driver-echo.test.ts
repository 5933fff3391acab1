/**
 * The example third-party driver, loaded the way users load it: by path (and by package name)
 * from a `plugin` block, through the same loader as the built-ins, then driven through the kernel.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  driverRegistryToken, type DriverFactory, type PluginReferenceConfig, type TaskConfig, type TaskInputs,
} from "../../core/plugin-api/mod.ts";
import { createKernel, type Kernel } from "../../core/kernel/kernel.ts";
import { daemonRun, recordingLogSink, testConfig } from "../core/kernel/kernel-fixtures.ts";

const exampleDir = resolve(import.meta.dirname, "../../examples/cts-driver-echo");

let workDir: string;
let kernel: Kernel | undefined;
beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), "cts-echo-"));
});
afterEach(async () => {
  await kernel?.stop();
  kernel = undefined;
  await rm(workDir, { recursive: true, force: true });
});

async function bootWith(block: PluginReferenceConfig, sources: string[] = []): Promise<Kernel> {
  const logSink = recordingLogSink();
  kernel = await createKernel({
    config: testConfig({ plugins: [block], sources }),
    runOptions: daemonRun,
    logSink,
    builtins: [],
  });
  await kernel.start();
  return kernel;
}

const task = { name: "web-sync", driver: "echo" } as TaskConfig;
const inputs: TaskInputs = {
  services: {
    "web-1.node-a.dc1": {
      id: "web-1", name: "web", kind: "", address: "10.0.0.1", port: 80, meta: {}, tags: ["blue"], namespace: "",
      status: "passing", node: "node-a", node_id: "n-a", node_address: "10.0.0.1", node_datacenter: "dc1",
      node_tagged_addresses: {}, node_meta: {}, cts_user_defined_meta: {},
    },
  },
};

async function runEcho(factory: DriverFactory): Promise<string> {
  const logSink = recordingLogSink();
  const driver = await factory.create(task, {
    driver: { name: "echo", options: {} },
    providers: [],
    consul: testConfig().consul,
    workingDir: join(workDir, "web-sync"),
    logger: logSink.logger("driver.echo"),
    inputs: [],
  });
  const signal = new AbortController().signal;
  await driver.init(signal);
  await driver.render(inputs, signal);
  expect((await driver.plan(signal)).changesPresent).toBe(true);
  await driver.apply(signal);
  expect((await driver.plan(signal)).changesPresent).toBe(false);
  expect(await driver.version()).toBe("echo 0.1.0");
  await driver.dispose?.();
  return readFile(join(workDir, "web-sync", "inputs.json"), "utf8");
}

describe("example third-party driver @example/cts-driver-echo", () => {
  it("loads from a directory path and writes the rendered inputs", async () => {
    const k = await bootWith({ name: "echo", source: exampleDir, options: {} });
    expect(k.plugins).toEqual([{ id: "driver-echo", kind: "driver", source: exampleDir }]);
    const factory = k.resolve(driverRegistryToken).get("echo");
    expect(factory).toBeDefined();
    const written = await runEcho(factory!);
    expect(JSON.parse(written)).toEqual(inputs);
    const calls = (factory as DriverFactory & { calls: { task: string; method: string }[] }).calls;
    expect(calls.map((c) => c.method)).toEqual(["init", "render", "plan", "apply", "plan", "dispose"]);
    expect(calls.every((c) => c.task === "web-sync")).toBe(true);
  });

  it("loads from a path relative to the config file, with its options validated and defaulted", async () => {
    const configFile = resolve(exampleDir, "../../test/fixtures/some-config.hcl");
    const k = await bootWith(
      { name: "echo", source: "../../examples/cts-driver-echo/mod.js", options: { driverName: "echo-compact", pretty: false } },
      [configFile],
    );
    const factory = k.resolve(driverRegistryToken).get("echo-compact");
    expect(factory?.name).toBe("echo-compact");
    expect(await runEcho(factory!)).toBe(`${JSON.stringify(inputs)}\n`);
  });

  it("loads by its package name", async () => {
    const k = await bootWith({ name: "echo", source: "@example/cts-driver-echo", options: {} });
    expect(k.resolve(driverRegistryToken).names()).toEqual(["echo"]);
  });

  it("rejects bad options with every problem listed", async () => {
    const error = await bootWith({ name: "echo", source: exampleDir, options: { driverName: "Not Valid", colour: "red", pretty: "yes" } })
      .then(() => undefined, (e: unknown) => e as Error & { code: string });
    kernel = undefined;
    expect(error?.code).toBe("CTS_ERR_PLUGIN_OPTIONS");
    expect(error?.message).toContain(`plugin "driver-echo": options must not have the key "colour"`);
    expect(error?.message).toContain(`plugin "driver-echo": options/driverName must match pattern`);
    expect(error?.message).toContain(`plugin "driver-echo": options/pretty must be boolean`);
  });

  it("loads and runs the same way under Deno", async () => {
    const root = resolve(import.meta.dirname, "../..");
    const deno = resolve(root, "node_modules/.bin/deno");
    const { stdout } = await promisify(execFile)(
      deno,
      ["run", "-A", "-q", "test/examples/deno/load-echo-driver.ts", exampleDir, join(workDir, "deno-task")],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toEqual({
      runtime: "deno",
      plugins: [{ id: "driver-echo", kind: "driver", source: exampleDir }],
      state: "stopped",
    });
    expect(JSON.parse(await readFile(join(workDir, "deno-task", "inputs.json"), "utf8"))).toEqual({ services: {} });
  });

  it("type-checks its JSDoc against the contract", async () => {
    const root = resolve(import.meta.dirname, "../..");
    const result = await promisify(execFile)(resolve(root, "node_modules/.bin/tsc"), ["-p", "examples/cts-driver-echo"], { cwd: root })
      .then(() => "ok", (error: { stdout?: string }) => error.stdout ?? String(error));
    expect(result).toBe("ok");
  });
});
