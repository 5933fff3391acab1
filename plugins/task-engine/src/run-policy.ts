/**
 * @module How the engine's runs go, one object for every task: the global cap on concurrent runs
 * (`max_concurrent_runs`), the retry policy and the run history's bounds (engine options `retry`
 * and `run_history`), the plugins' run hooks, and the gate that holds scheduled runs back while the
 * start-up pass runs.
 */
import type { RunRetention, ServiceContext } from "../../../core/plugin-api/mod.ts";
import { configToken, defineService, loggerToken, runHookRegistryToken, secretMaskerToken } from "../../../core/plugin-api/mod.ts";
import type { EngineOptions } from "./engine-options.ts";
import { runPolicyToken } from "./engine-tokens.ts";
import { retryPolicyOf, type RetryPolicy } from "./retry-policy.ts";
import { runOutputBytesOf, runRetentionOf } from "./run-history-options.ts";
import { RunHooks } from "./run-hooks.ts";
import { RunLimiter } from "./run-limiter.ts";
import { ScheduleGate } from "./schedule-gate.ts";

export interface RunPolicy {
  readonly limiter: RunLimiter;
  /** How failed runs are retried (engine option `retry`). */
  readonly retry: RetryPolicy;
  /** How much run history the store keeps per task (engine option `run_history`). */
  readonly retention: RunRetention;
  /** The most bytes of output a run record keeps per phase (`run_history.max_output_bytes`). */
  readonly outputBytes: number;
  /** Plugins' work around each run (`runHookRegistryToken`): before the apply (may cancel it) and after. */
  readonly hooks: RunHooks;
  /** Closed while the start-up pass runs: scheduled ticks are dropped (CTS starts schedules after it). */
  readonly scheduleGate: ScheduleGate;
}

export const runPolicyService = defineService({
  token: runPolicyToken,
  deps: { config: configToken, runHooks: runHookRegistryToken, logger: loggerToken, secrets: secretMaskerToken },
  create({ config, runHooks, logger, secrets }, { options }: ServiceContext<EngineOptions>): RunPolicy {
    return Object.freeze({
      limiter: new RunLimiter(config.max_concurrent_runs ?? 0),
      retention: runRetentionOf(options.run_history),
      retry: retryPolicyOf(options.retry),
      outputBytes: runOutputBytesOf(options.run_history),
      hooks: new RunHooks(runHooks, logger, secrets),
      scheduleGate: new ScheduleGate(),
    });
  },
});
