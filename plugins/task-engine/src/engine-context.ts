/**
 * @module What every task runtime shares, in named groups: the engine's services, resolved once
 * per kernel. Each group is one service of this plugin (engine-services.ts), so the part that needs
 * the run policy or the records names that group, not a dozen loose fields.
 */
import type { ConsulClient, CtsConfig, FileSystem, Logger } from "../../../core/plugin-api/mod.ts";
import type { RunPolicy } from "./run-policy.ts";
import type { TaskBlocks } from "./task-blocks.ts";
import type { TaskRecords } from "./task-records.ts";

/** This instance among the daemons that share the tasks. */
export interface EngineInstance {
  /** Written into every event and run record. */
  readonly id: string;
  /** Shared cluster mode: whether this instance owns the task now (unset: it runs every task). */
  readonly owns?: (task: string) => boolean;
}

export interface EngineContext {
  readonly config: CtsConfig;
  readonly logger: Logger;
  /** Aborted when the kernel stops: ends waits, never a running apply. */
  readonly signal: AbortSignal;
  /** Resolves working directories and module paths against the daemon's directory. */
  readonly fileSystem: FileSystem;
  /** The daemon's Consul client: the credentials a driver's backend uses, the address a wait names. */
  readonly consul: ConsulClient;
  readonly instance: EngineInstance;
  /** What a task's driver, condition and module inputs are made from and read through. */
  readonly blocks: TaskBlocks;
  /** How runs go: the concurrency cap, retries, hooks, history bounds, the start-up schedule gate. */
  readonly runs: RunPolicy;
  /** Where tasks and what they did are kept, told and masked. */
  readonly records: TaskRecords;
}
