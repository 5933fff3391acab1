/**
 * @module The driver conformance suite: what every driver (built-in or third-party) must do,
 * run against the real kernel. A driver package's test file can be one call:
 * `describeDriverConformance("echo", driverEchoPlugin, { driverName: "echo", inputs: [a, b] })`.
 *
 * Each test builds its own state: a task of its own (name, working directory, and so whatever the
 * driver keeps per task) and the applies it starts from, so one defect fails the one test of that
 * behaviour. A test whose starting point needs an apply that fails is skipped, naming the cause:
 * the apply test reports the defect.
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import {
  driverRegistryToken, errorMessage, type Driver, type DriverContext, type DriverFactory, type PluginDefinition,
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
  /**
   * Task fields beyond `driver` (module, variables, ...). Each test runs its own task, named after
   * this one's `name` (default "conformance-task") with a number: `conformance-task-3`.
   */
  readonly task?: Partial<TaskConfig>;
  /**
   * Checks the effect of an apply of `task`, e.g. reads what the driver wrote in its working
   * directory, or the workspace named after it.
   */
  readonly assertApplied?: (workingDir: string, inputs: TaskInputs, task: TaskConfig) => void | Promise<void>;
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
  const [first, second] = fixtures.inputs;

  describe(`driver conformance: ${name}`, () => {
    let booted: TestKernel;
    let root: string;
    let factory: DriverFactory;
    const logs: string[] = [];
    let tasks = 0;
    // What an engine would pass: every variable the fixtures' inputs carry, as a condition renders it.
    const inputSpecs: TaskInputSpec[] = VARIABLES
      .filter((variable) => fixtures.inputs.some((inputs) => inputs[variable] !== undefined))
      .map((variable) => ({ variable, block: "condition", type: variable.replace("_", "-"), triggers: true }));

    /** A task no other test uses: its own name, so its own working directory and driver state. */
    const ownTask = (): TaskConfig =>
      ({ ...fixtures.task, name: `${fixtures.task?.name ?? "conformance-task"}-${++tasks}`, driver: fixtures.driverName }) as TaskConfig;
    const workingDirOf = (task: TaskConfig) => createFileSystem(root).resolve(task.name);
    const assertApplied = (task: TaskConfig, inputs: TaskInputs) => fixtures.assertApplied?.(workingDirOf(task), inputs, task);

    /** A new driver instance for `task`, initialized, as the engine makes one when a task is created. */
    const newDriver = async (task: TaskConfig): Promise<Driver> => {
      const ctx: DriverContext = {
        driver: { name: fixtures.driverName, options: fixtures.driverOptions ?? {} },
        providers: [],
        consul: testConfig().consul,
        workingDir: workingDirOf(task),
        logger: createLogSink({ level: "DEBUG", write: (line) => logs.push(line) }).logger(`driver.${fixtures.driverName}`),
        inputs: inputSpecs,
      };
      const driver = await factory.create(task, ctx);
      await driver.init(signal());
      return driver;
    };

    /** The starting point "`inputs` applied" on a new instance for `task`, as an engine run does (render, apply). */
    const applied = async (context: TestContext, task: TaskConfig, inputs: TaskInputs): Promise<Driver> => {
      try {
        const driver = await newDriver(task);
        await driver.render(inputs, signal());
        await driver.apply(signal());
        return driver;
      } catch (error) {
        return context.skip(`cannot start from applied inputs (see "applies the rendered inputs"): ${errorMessage(error)}`);
      }
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

    it("reports its version", async () => {
      const driver = await newDriver(ownTask());
      const version = await driver.version();
      expect(typeof version).toBe("string");
      expect(version.length).toBeGreaterThan(0);
      await driver.dispose?.();
    }, timeout);

    it("applies the rendered inputs, and changed inputs over applied ones", async () => {
      const task = ownTask();
      const driver = await newDriver(task);
      await driver.render(first, signal());
      await driver.apply(signal());
      await assertApplied(task, first);
      await driver.render(second, signal());
      await driver.apply(signal());
      await assertApplied(task, second);
      await driver.dispose?.();
    }, timeout);

    it("plans changes exactly when the rendered inputs differ from the applied ones, also on a new instance", async (context) => {
      const task = ownTask();
      const fresh = await newDriver(task);
      await fresh.render(first, signal());
      expect((await fresh.plan(signal())).changesPresent, "plan of inputs never applied").toBe(true);
      await fresh.dispose?.();
      const driver = await applied(context, task, first);
      expect((await driver.plan(signal())).changesPresent, "plan right after the apply").toBe(false);
      await driver.dispose?.();
      const next = await newDriver(task);
      await next.render(first, signal());
      expect((await next.plan(signal())).changesPresent, "plan of the applied inputs on a new instance").toBe(false);
      await next.render(second, signal());
      expect((await next.plan(signal())).changesPresent, "plan of changed inputs").toBe(true);
      await next.dispose?.();
    }, timeout);

    it("gives up when its signal is aborted, leaving the applied inputs", async (context) => {
      const task = ownTask();
      await (await applied(context, task, first)).dispose?.();
      const driver = await newDriver(task);
      await driver.render(second, signal());
      await expect(driver.apply(AbortSignal.abort(new Error("conformance: aborted")))).rejects.toThrow();
      await assertApplied(task, first);
      await driver.dispose?.();
    }, timeout);
  });
}
