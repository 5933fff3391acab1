/**
 * @module The engine as a service of this plugin: it gathers the engine context from the groups
 * the other services make (task-blocks.ts, run-policy.ts, task-records.ts), starts the engine with
 * the kernel and stops it letting applies in progress finish (never cancel a half-written apply).
 */
import type { ServiceContext } from "../../../core/plugin-api/mod.ts";
import {
  configToken, consulClientToken, defineService, fileSystemToken, httpClientFactoryToken, leadershipToken, loggerToken,
  runOptionsToken, shutdownToken,
} from "../../../core/plugin-api/mod.ts";
import { oneShotConsulWaitMs, type EngineOptions } from "./engine-options.ts";
import { engineToken, runPolicyToken, taskBlocksToken, taskRecordsToken } from "./engine-tokens.ts";
import { Engine } from "./engine.ts";

export const engineService = defineService({
  token: engineToken,
  deps: {
    config: configToken, runOptions: runOptionsToken, leadership: leadershipToken, shutdown: shutdownToken, logger: loggerToken,
    fileSystem: fileSystemToken, http: httpClientFactoryToken, consul: consulClientToken,
    blocks: taskBlocksToken, runs: runPolicyToken, records: taskRecordsToken,
  },
  create(deps, { options, lifecycle }: ServiceContext<EngineOptions>): Engine {
    const consulWaitMs = oneShotConsulWaitMs(options);
    const { runOptions, leadership } = deps;
    const stop = new AbortController();
    // Every task's sources listen to the stop signal: 1,000 tasks are not a listener leak (Node warns at 11).
    deps.http.allowManyAbortListeners(stop.signal);
    // -once/-inspect run outside the cluster: every task, as in the single-leader mode.
    const ownership = runOptions.mode === "daemon" ? leadership.ownership : undefined;
    const engine = new Engine({
      context: {
        config: deps.config, logger: deps.logger, signal: stop.signal, fileSystem: deps.fileSystem, consul: deps.consul,
        instance: { id: leadership.instanceId, ...(ownership ? { owns: (task: string) => ownership.owns(task) } : {}) },
        blocks: deps.blocks, runs: deps.runs, records: deps.records,
      },
      runOptions, leadership, shutdown: deps.shutdown,
    });
    lifecycle.onStart(() => engine.start({ oneShotConsulWaitMs: consulWaitMs }));
    lifecycle.onStop(async () => {
      const stopping = engine.stop();
      stop.abort();
      await stopping;
      deps.logger.debug("task engine stopped");
    }, { timeoutMs: 120_000 });
    return engine;
  },
});
