/**
 * The kernel calls the configured driver's `verify` once at start-up, after every init and before any
 * start hook; its failure stops start-up (issue 12 item 3). CTS behaviour pinned: CTS checks its
 * Terraform binary at start, so a missing one fails start-up instead of the first task run.
 */
import { describe, expect, it } from "vitest";
import {
  CtsError, definePlugin, driverRegistryToken, type DriverConfig, type DriverFactory, type PluginDefinition,
} from "../../../core/plugin-api/mod.ts";
import { createKernel, type KernelOptions } from "../../../core/kernel/kernel.ts";
import { daemonRun, recordingLogSink, testConfig } from "./kernel-fixtures.ts";

function driverPlugin(name: string, journal: string[], fail?: CtsError): PluginDefinition {
  const factory: DriverFactory = {
    name,
    async verify(driver: DriverConfig) {
      journal.push(`verify ${driver.name} ${JSON.stringify(driver.options)}`);
      if (fail) throw fail;
      return `${name} 1.0.0`;
    },
    create: () => Promise.reject(new Error("not used")),
  };
  return definePlugin({
    id: `driver-${name}`,
    kind: "driver",
    deps: { drivers: driverRegistryToken },
    init({ drivers }, ctx) {
      drivers.register(factory);
      ctx.lifecycle.onStart(() => void journal.push(`start driver-${name}`));
    },
  }) as PluginDefinition;
}

function options(plugins: PluginDefinition[]): KernelOptions {
  const config = testConfig({ driver: { name: "echo", options: { binary: "echo-bin" } } });
  return { config, runOptions: daemonRun, logSink: recordingLogSink(), builtins: [], plugins };
}

describe("driver verify at start-up", () => {
  it("verifies the configured driver once, with its block, before any start hook", async () => {
    const journal: string[] = [];
    const kernel = await createKernel(options([driverPlugin("echo", journal), driverPlugin("other", journal)]));
    await kernel.start();
    await kernel.stop();
    expect(journal).toEqual(['verify echo {"binary":"echo-bin"}', "start driver-echo", "start driver-other"]);
  });

  it("stops start-up with the driver's error as the cause, before any start hook runs", async () => {
    const journal: string[] = [];
    const missing = new CtsError("CTS_ERR_DRIVER_BINARY", "Cannot find echo: not on PATH");
    const kernel = await createKernel(options([driverPlugin("echo", journal, missing)]));
    const error = await kernel.start().then(() => undefined, (e: CtsError) => e);
    expect(error?.code).toBe("CTS_ERR_PLUGIN_INIT");
    expect(error?.message).toBe('Cannot verify driver "echo": Cannot find echo: not on PATH');
    expect(error?.cause).toBe(missing);
    expect(journal).toEqual(['verify echo {"binary":"echo-bin"}']);
    expect(kernel.state).toBe("failed");
    await kernel.stop();
  });
});
