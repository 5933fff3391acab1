/**
 * @module A task's last run as the task store keeps it. It is written when a run starts and again
 * when it ends, so a run cut short by a crash stays `started` and is never taken for a success; a
 * run may be skipped only when the last one succeeded with exactly the same fingerprint.
 */
import type { Logger, StoredRun, StoredTask, TaskConfig, TaskStore } from "../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../core/plugin-api/mod.ts";

export class RunState {
  readonly #store: TaskStore;
  readonly #logger: Logger;
  #last: StoredRun | undefined;
  /** False while a task being created is not in the store yet: its runs must not store it early. */
  #inStore: boolean;

  /** The run record of the last successful apply. */
  #lastApplied: string | undefined;

  constructor(store: TaskStore, logger: Logger, stored: Pick<StoredTask, "lastRun" | "lastAppliedRun">, inStore: boolean) {
    this.#store = store;
    this.#logger = logger;
    this.#last = stored.lastRun;
    this.#lastApplied = stored.lastAppliedRun;
    this.#inStore = inStore;
  }

  /** The run record of the last successful apply, when one was recorded. */
  get lastApplied(): string | undefined {
    return this.#lastApplied;
  }

  get last(): StoredRun | undefined {
    return this.#last;
  }

  /** Takes the last run another instance stored (shared cluster mode: the task just moved here). */
  reload(stored: Pick<StoredTask, "lastRun" | "lastAppliedRun"> | undefined): void {
    this.#last = stored?.lastRun;
    this.#lastApplied = stored?.lastAppliedRun;
  }

  /** The task is in the store now; from here on every run start and end is stored. */
  markStored(): void {
    this.#inStore = true;
  }

  /** What the task store keeps for the task with `config`. */
  stored(config: TaskConfig): StoredTask {
    return { config, ...(this.#last ? { lastRun: this.#last } : {}), ...(this.#lastApplied ? { lastAppliedRun: this.#lastApplied } : {}) };
  }

  /** True when the last run succeeded with exactly this fingerprint (nothing it watches changed). */
  unchanged(fingerprint: string): boolean {
    return this.#last?.state === "succeeded" && this.#last.fingerprint === fingerprint;
  }

  /**
   * Records a run's state, and stores it; a store failure is logged, never fails the run. `runId`:
   * the run's record, kept as the last successful apply's when it succeeded.
   */
  async record(config: TaskConfig, fingerprint: string, state: StoredRun["state"], runId?: string): Promise<void> {
    this.#last = { fingerprint, state };
    if (state === "succeeded" && runId) this.#lastApplied = runId;
    if (!this.#inStore) return;
    try {
      await this.#store.putTask(this.stored(config));
    } catch (error) {
      this.#logger.error("cannot store task state", { error: errorMessage(error) });
    }
  }
}
