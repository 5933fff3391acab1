/**
 * @module The driver conformance suite: what every driver (built-in or third-party) must do,
 * run against the real kernel. A driver package's test file can be one call:
 * `describeDriverConformance("echo", driverEchoPlugin, { driverName: "echo", inputs: [a, b] })`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  driverRegistryToken, type Driver, type DriverContext, type DriverFactory, type PluginDefinition,
  type InputVariable, type TaskConfig, type TaskInputs, type TaskInputSpec,
} from "@cts-runtime/plugin-api";
import { type BuiltinPlugin, createFileSystem, createLogSink, createTempDirectory } from "cts-runtime";
import { createTestKernel, type TestKernel } from "./create-test-kernel.ts";
import { testConfig } from "./test-config.ts";

const VARIABLES: readonly InputVariable[] = ["services", "catalog_services", "consul_kv"];

export interface DriverConformanceFixtures {
  /** The `driver "<name>"` label the plugin registers. */
  readonly driverName: string;
  /** The plugin's options (what its `plugin` block's `options` would hold). */
  readonly pluginOptions?: Readonly<Record<string, unknown>>;
  /** The `driver "<name>" {}` block body. */
  readonly driverOptions?: Readonly<Record<string, unknown>>;
  /** Two different sets of inputs: the suite applies the first, then changes to the second. */
  readonly inputs: readonly [TaskInputs, TaskInputs];
  /** Task fields beyond `name` and `driver` (module, variables, ...). */
  readonly task?: Partial<TaskConfig>;
  /** Checks the effect of an apply, e.g. reads what the driver wrote in the working directory. */
  readonly assertApplied?: (workingDir: string, inputs: TaskInputs) => void | Promise<void>;
  /** Plugins the driver needs beside itself (providers of its deps). */
  readonly plugins?: readonly PluginDefinition[];
  readonly builtins?: readonly BuiltinPlugin[];
  /** Per-test limit for slow drivers. @default 30000 */
  readonly timeoutMs?: number;
}

/**
 * @param plugin the plugin definition, or a `source` (path or package name) the kernel loads the
 *   way it loads a config's `plugin` block.
 */
export function describeDriverConformance(
  name: string,
  plugin: PluginDefinition | string,
  fixtures: DriverConformanceFixtures,
): void {
  const timeout = fixtures.timeoutMs ?? 30_000;
  const signal = () => new AbortController().signal;

  describe(`driver conformance: ${name}`, () => {
    let booted: TestKernel;
    let root: string;
    let factory: DriverFactory;
    const logs: string[] = [];
    const task = { name: "conformance-task", ...fixtures.task, driver: fixtures.driverName } as TaskConfig;
    // What an engine would pass: every variable the fixtures' inputs carry, as a condition renders it.
    const inputSpecs: TaskInputSpec[] = VARIABLES
      .filter((variable) => fixtures.inputs.some((inputs) => inputs[variable] !== undefined))
      .map((variable) => ({ variable, block: "condition", type: variable.replace("_", "-"), triggers: true }));

    const newDriver = (): Promise<Driver> => {
      const ctx: DriverContext = {
        driver: { name: fixtures.driverName, options: fixtures.driverOptions ?? {} },
        providers: [],
        consul: testConfig().consul,
        workingDir: createFileSystem(root).resolve(task.name),
        logger: createLogSink({ level: "DEBUG", write: (line) => logs.push(line) }).logger(`driver.${fixtures.driverName}`),
        inputs: inputSpecs,
      };
      return factory.create(task, ctx);
    };

    beforeAll(async () => {
      root = await createTempDirectory("cts-driver-conformance-");
      // A source loads through the config path; a definition is passed in and configured by id.
      const byPath = typeof plugin === "string";
      booted = await createTestKernel({
        plugins: [...(byPath ? [] : [plugin]), ...(fixtures.plugins ?? [])],
        pluginBlocks: byPath
          ? [{ name, source: plugin, options: fixtures.pluginOptions ?? {} }]
          : fixtures.pluginOptions
          ? [{ name, source: `builtin:${plugin.id}`, options: fixtures.pluginOptions }]
          : [],
        builtins: fixtures.builtins ?? [],
      });
      factory = booted.kernel.resolve(driverRegistryToken).get(fixtures.driverName)!;
    }, timeout);

    afterAll(async () => {
      await booted?.kernel.stop();
      if (root) await createFileSystem(root).remove(root);
    }, timeout);

    it(`registers the driver "${fixtures.driverName}" when the kernel starts`, () => {
      expect(factory, `driver "${fixtures.driverName}" is registered`).toBeDefined();
      expect(factory.name).toBe(fixtures.driverName);
      expect(typeof factory.create).toBe("function");
    });

    it("verifies its prerequisites, when it offers verify()", async () => {
      if (!factory.verify) return;
      const found = await factory.verify({ name: fixtures.driverName, options: fixtures.driverOptions ?? {} }, signal());
      expect(typeof found).toBe("string");
      expect(found.length).toBeGreaterThan(0);
    }, timeout);

    it("runs init → render → plan → apply, then plans no changes for the same inputs", async () => {
      const driver = await newDriver();
      await driver.init(signal());
      await driver.render(fixtures.inputs[0], signal());
      expect((await driver.plan(signal())).changesPresent).toBe(true);
      await driver.apply(signal());
      await fixtures.assertApplied?.(createFileSystem(root).resolve(task.name), fixtures.inputs[0]);
      expect((await driver.plan(signal())).changesPresent).toBe(false);
      const version = await driver.version();
      expect(typeof version).toBe("string");
      expect(version.length).toBeGreaterThan(0);
      await driver.dispose?.();
    }, timeout);

    it("sees applied state from a new driver instance and applies changed inputs", async () => {
      const driver = await newDriver();
      await driver.init(signal());
      await driver.render(fixtures.inputs[0], signal());
      expect((await driver.plan(signal())).changesPresent).toBe(false);
      await driver.render(fixtures.inputs[1], signal());
      expect((await driver.plan(signal())).changesPresent).toBe(true);
      await driver.apply(signal());
      await fixtures.assertApplied?.(createFileSystem(root).resolve(task.name), fixtures.inputs[1]);
      await driver.dispose?.();
    }, timeout);

    it("gives up when its signal is aborted", async () => {
      const driver = await newDriver();
      await driver.init(signal());
      await driver.render(fixtures.inputs[0], signal());
      const aborted = AbortSignal.abort(new Error("conformance: aborted"));
      await expect(driver.apply(aborted)).rejects.toThrow();
      await fixtures.assertApplied?.(createFileSystem(root).resolve(task.name), fixtures.inputs[1]);
      await driver.dispose?.();
    }, timeout);
  });
}
