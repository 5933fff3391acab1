/** @module What every task runtime shares: the engine's services, resolved once per kernel. */
import type {
  ConditionFactory, ConsulClient, CtsConfig, DaemonEvents, DriverFactory, FileSystem, Logger, ModuleInputFactory,
  QueryWatcher,
  Registry, RunRetention, SecretMasker, TaskEvent, TaskStore,
} from "../../../core/plugin-api/mod.ts";
import type { DriftDefaults } from "./drift-settings.ts";
import type { ProviderTemplates } from "./provider-templates.ts";
import type { RetryPolicy } from "./retry-policy.ts";
import type { RunHooks } from "./run-hooks.ts";
import type { RunLimiter } from "./run-limiter.ts";
import type { ScheduleGate } from "./schedule-gate.ts";

export interface EngineContext {
  readonly config: CtsConfig;
  readonly logger: Logger;
  readonly watcher: QueryWatcher;
  readonly consul: ConsulClient;
  readonly store: TaskStore;
  readonly drivers: Registry<DriverFactory>;
  readonly conditions: Registry<ConditionFactory>;
  readonly moduleInputs: Registry<ModuleInputFactory>;
  readonly fileSystem: FileSystem;
  readonly limiter: RunLimiter;
  /** `{{ key }}` values of terraform_provider blocks, read from Consul once. */
  readonly providerTemplates: ProviderTemplates;
  readonly instanceId: string;
  /** Aborted when the kernel stops: ends waits, never a running apply. */
  readonly signal: AbortSignal;
  /** Kept events per task. */
  readonly eventLimit: number;
  /** Shared cluster mode: whether this instance owns the task now (unset: it runs every task). */
  readonly owns?: (task: string) => boolean;
  /** TaskManager.onEvent subscribers, told of every recorded event. */
  readonly eventListeners: Set<(event: TaskEvent) => void>;
  /** The kernel's live event bus: runs, task states, task creation and deletion. */
  readonly daemonEvents: DaemonEvents;
  /** How much run history the store keeps per task (engine option `run_history`). */
  readonly runRetention: RunRetention;
  /** The daemon's secrets: masked in every event, run record (its output too), drift check, destroy and update answer before it is kept or published. */
  readonly secrets: SecretMasker;
  /** Every task's drift detection default (engine option `drift_detection`). */
  readonly driftDefaults?: DriftDefaults;
  /** How failed runs are retried (engine option `retry`). */
  readonly retryPolicy: RetryPolicy;
  /** The most bytes of output a run record keeps per phase (`run_history.max_output_bytes`). */
  readonly runOutputBytes: number;
  /** Closed while the start-up pass runs: scheduled ticks are dropped (CTS starts schedules after it). */
  readonly scheduleGate?: ScheduleGate;
  /** Plugins' work around each run (`runHookRegistryToken`): before the apply (may cancel it) and after. */
  readonly runHooks?: RunHooks;
}
