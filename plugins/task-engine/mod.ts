/**
 * @module The task engine plugin: the shared Consul watcher pool (`queryWatcherToken`) and the
 * task engine behind `taskManagerToken` (buffer periods, serial coalesced runs, events, modes,
 * leadership). The engine is made of this plugin's own services, each with few dependencies and
 * one concept (src/engine-tokens.ts names them): provider secrets, task blocks, run policy, task
 * records, the engine, drift monitoring; `init` makes the engine follow task ownership and rotated secrets.
 */
import {
  consulClientToken, defineService, definePlugin, leadershipToken, loggerToken, queryWatcherToken, runOptionsToken,
  taskManagerToken,
} from "../../core/plugin-api/mod.ts";
import type { TaskManager } from "../../core/plugin-api/mod.ts";
import { driftService } from "./src/drift-service.ts";
import { engineOptionsSchema } from "./src/engine-options.ts";
import { engineService } from "./src/engine-service.ts";
import { driftStatesToken, engineToken, providerSecretsToken } from "./src/engine-tokens.ts";
import { followOwnership } from "./src/ownership-follower.ts";
import { providerSecretsService } from "./src/provider-secrets.ts";
import { SharedQueryWatcher } from "./src/query-watcher.ts";
import { runPolicyService } from "./src/run-policy.ts";
import { followSecretRotations } from "./src/secret-rotation-follower.ts";
import { taskBlocksService } from "./src/task-blocks.ts";
import { EngineTaskManager } from "./src/task-manager.ts";
import { taskRecordsService } from "./src/task-records.ts";

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

/** The face the HTTP API, the CLI and HA drive: the engine's tasks, with their drift states. */
const taskManagerService = defineService({
  token: taskManagerToken,
  deps: { engine: engineToken, drift: driftStatesToken },
  create: ({ engine, drift }): TaskManager => new EngineTaskManager(engine, drift),
});

export default definePlugin({
  id: "task-engine",
  kind: "service",
  logName: "tasksmanager",
  description: "Runs tasks when their Consul inputs change: shared watchers, buffer periods, serial runs, events",
  // In dependency order: a service is made after those it uses.
  provides: [
    watcherService, providerSecretsService, taskBlocksService, runPolicyService, taskRecordsService, engineService, driftService,
    taskManagerService,
  ],
  optionsSchema: engineOptionsSchema,
  deps: {
    engine: engineToken, drift: driftStatesToken, providers: providerSecretsToken, consul: consulClientToken,
    leadership: leadershipToken, runOptions: runOptionsToken, logger: loggerToken,
  },
  init({ engine, drift, providers, consul, leadership, runOptions, logger }, { lifecycle }) {
    // Both belong to the daemon: -once and -inspect run every task once and read each secret once.
    if (runOptions.mode !== "daemon") return;
    if (leadership.ownership) followOwnership(engine, leadership.ownership, drift);
    if (providers.rotations) {
      const unfollow = followSecretRotations(engine, providers.rotations, consul, logger);
      // Registered after the engine's and the drift monitor's: it stops first, as before those.
      lifecycle.onStop(unfollow);
    }
  },
});
