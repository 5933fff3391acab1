/**
 * @module The task engine plugin: the shared Consul watcher pool (`queryWatcherToken`) and the
 * task engine behind `taskManagerToken` (buffer periods, serial coalesced runs, events, modes,
 * leadership). The engine lives in the task manager service, which starts and stops it through the
 * lifecycle the kernel gives service factories.
 */
import {
  conditionRegistryToken, configToken, consulClientToken, daemonEventsToken, defineService, definePlugin, driverRegistryToken,
  fileSystemToken, httpClientFactoryToken, leadershipToken, loggerToken, metricsSourceRegistryToken, moduleInputRegistryToken,
  queryWatcherToken, runHookRegistryToken, runOptionsToken, secretMaskerToken, shutdownToken, taskManagerToken, taskStoreToken,
  vaultSecretsToken,
} from "../../core/plugin-api/mod.ts";
import type { ServiceContext, TaskManager } from "../../core/plugin-api/mod.ts";
import { engineOptionsSchema, oneShotConsulWaitMs, type EngineOptions } from "./src/engine-options.ts";
import { Engine } from "./src/engine.ts";
import { followOwnership } from "./src/ownership-follower.ts";
import { SharedQueryWatcher } from "./src/query-watcher.ts";
import { ProviderTemplates } from "./src/provider-templates.ts";
import { RunLimiter } from "./src/run-limiter.ts";
import { EngineTaskManager } from "./src/task-manager.ts";
import { retryPolicyOf } from "./src/retry-policy.ts";
import { runOutputBytesOf, runRetentionOf } from "./src/run-history-options.ts";
import { ScheduleGate } from "./src/schedule-gate.ts";
import { DriftMonitor } from "./src/drift-monitor.ts";
import { checkDriftDefaults } from "./src/drift-settings.ts";
import { RunHooks } from "./src/run-hooks.ts";
import { ProviderRotations } from "./src/provider-rotations.ts";
import { followSecretRotations } from "./src/secret-rotation-follower.ts";

export { SharedQueryWatcher } from "./src/query-watcher.ts";
export type { QueryWatcherStats } from "./src/query-watcher.ts";
export { BufferTimer } from "./src/buffer-timer.ts";
export { RunQueue } from "./src/run-queue.ts";
export { taskStatus } from "./src/task-status.ts";
export { canonicalJson, inputHash } from "./src/input-hash.ts";

const watcherService = defineService({
  token: queryWatcherToken,
  deps: { consul: consulClientToken, logger: loggerToken },
  create({ consul, logger }, { lifecycle }) {
    const watcher = new SharedQueryWatcher(consul, logger.child("watcher"));
    // Registered before the engine's stop hook, so it runs after it: blocking queries end once runs drained.
    lifecycle.onStop(() => watcher.close());
    return watcher;
  },
  dispose: (watcher) => watcher.close(),
});

const taskManagerService = defineService({
  token: taskManagerToken,
  deps: {
    config: configToken, runOptions: runOptionsToken, store: taskStoreToken, leadership: leadershipToken,
    drivers: driverRegistryToken, conditions: conditionRegistryToken, moduleInputs: moduleInputRegistryToken,
    shutdown: shutdownToken, logger: loggerToken, fileSystem: fileSystemToken, watcher: queryWatcherToken,
    consul: consulClientToken, vault: vaultSecretsToken, daemonEvents: daemonEventsToken, http: httpClientFactoryToken,
    secrets: secretMaskerToken, metricsSources: metricsSourceRegistryToken, runHooks: runHookRegistryToken,
  },
  create(deps, { options, lifecycle }: ServiceContext<EngineOptions>): TaskManager {
    const consulWaitMs = oneShotConsulWaitMs(options);
    const runRetention = runRetentionOf(options.run_history);
    checkDriftDefaults(options.drift_detection);
    const retryPolicy = retryPolicyOf(options.retry);
    const runOutputBytes = runOutputBytesOf(options.run_history);
    const stop = new AbortController();
    // Rotated secrets run tasks again in the daemon only: -once and -inspect read each secret once.
    const rotations = deps.runOptions.mode === "daemon" ? new ProviderRotations(deps.vault, deps.logger) : undefined;
    // Every task's sources listen to the stop signal: 1,000 tasks are not a listener leak (Node warns at 11).
    deps.http.allowManyAbortListeners(stop.signal);
    const engine = new Engine({
      context: {
        config: deps.config,
        logger: deps.logger,
        watcher: deps.watcher,
        consul: deps.consul,
        store: deps.store,
        drivers: deps.drivers,
        conditions: deps.conditions,
        moduleInputs: deps.moduleInputs,
        fileSystem: deps.fileSystem,
        limiter: new RunLimiter(deps.config.max_concurrent_runs ?? 0),
        providerTemplates: new ProviderTemplates(deps.consul, deps.vault, deps.secrets, rotations),
        secrets: deps.secrets,
        instanceId: deps.leadership.instanceId,
        signal: stop.signal,
        eventLimit: deps.config.events_per_task > 0 ? deps.config.events_per_task : 5,
        eventListeners: new Set(),
        daemonEvents: deps.daemonEvents,
        runRetention,
        retryPolicy,
        runOutputBytes,
        scheduleGate: new ScheduleGate(),
        runHooks: new RunHooks(deps.runHooks, deps.logger, deps.secrets),
        ...(options.drift_detection ? { driftDefaults: options.drift_detection } : {}),
        // -once/-inspect run outside the cluster: every task, as in the single-leader mode.
        ...(deps.leadership.ownership && deps.runOptions.mode === "daemon"
          ? { owns: (task: string) => deps.leadership.ownership!.owns(task) }
          : {}),
      },
      runOptions: deps.runOptions,
      leadership: deps.leadership,
      shutdown: deps.shutdown,
    });
    // Drift checks belong to the daemon: -once and -inspect never check.
    const drift = deps.runOptions.mode === "daemon" ? new DriftMonitor(engine, deps.logger) : undefined;
    if (drift) deps.metricsSources.register(drift);
    const unfollowRotations = rotations ? followSecretRotations(engine, rotations, deps.consul, deps.logger) : undefined;
    const ownership = deps.leadership.ownership;
    if (ownership && deps.runOptions.mode === "daemon") followOwnership(engine, ownership, drift);
    lifecycle.onStart(() => {
      engine.start({ oneShotConsulWaitMs: consulWaitMs });
      drift?.start();
    });
    // Applies in progress are allowed to finish (never cancel a half-written apply).
    lifecycle.onStop(async () => {
      drift?.stop();
      unfollowRotations?.();
      rotations?.close();
      const stopping = engine.stop();
      stop.abort();
      await stopping;
      deps.logger.debug("task engine stopped");
    }, { timeoutMs: 120_000 });
    return new EngineTaskManager(engine, drift);
  },
});

export default definePlugin({
  id: "task-engine",
  kind: "service",
  logName: "tasksmanager",
  description: "Runs tasks when their Consul inputs change: shared watchers, buffer periods, serial runs, events",
  provides: [watcherService, taskManagerService],
  optionsSchema: engineOptionsSchema,
  deps: {},
});
