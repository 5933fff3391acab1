/**
 * @module The task engine's shared Consul watcher over a real Consul, for the condition
 * conformance suite: a kernel with only the built-ins the watcher needs (the Consul client, the
 * engine and what the engine takes), so a source is tested on the watcher the daemon gives it.
 */
import { CtsError, queryWatcherToken } from "@cts-runtime/plugin-api";
import { builtinPlugins } from "cts-runtime";
import { createTestKernel } from "./create-test-kernel.ts";
import type { CountingQueryWatcher } from "./describe-condition-conformance.ts";
import { testConfig } from "./test-config.ts";

const WATCHER_PLUGINS = new Set(["consul-client", "vault-client", "task-engine", "task-store-memory", "leadership-standalone"]);

export interface TestWatcher {
  readonly watcher: CountingQueryWatcher;
  /** Stops the kernel: every blocking query ends. */
  stop(): Promise<void>;
}

/** @param consulAddress `host:port` of the Consul to watch (the embedded dev server, say). */
export async function createTestWatcher(consulAddress: string): Promise<TestWatcher> {
  const { kernel } = await createTestKernel({
    config: testConfig({ consulAddress }),
    builtins: builtinPlugins.filter((builtin) => WATCHER_PLUGINS.has(builtin.id)),
    logLevel: "WARN",
  });
  const watcher = kernel.resolve(queryWatcherToken);
  if (typeof watcher.stats !== "function") {
    await kernel.stop();
    throw new CtsError("CTS_ERR_PLUGIN_INVALID", "Cannot create a test watcher: the engine's watcher does not count its queries (no stats())");
  }
  return { watcher: watcher as CountingQueryWatcher, stop: () => kernel.stop() };
}
