/**
 * @module Drops run records past the retention while tasks do not run: a store applies the limits
 * when a record is written, so without this a task that stopped running would keep records past
 * `max_age` for ever. Runs every tenth of `max_age` (between 1 s and 1 h) while this instance
 * leads, one task after another, for the tasks it runs; a failing store is logged, never fatal.
 */
import { errorMessage } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";

export function pruneIntervalMs(maxAgeMs: number): number {
  return Math.min(3_600_000, Math.max(1000, Math.floor(maxAgeMs / 10)));
}

export class RunPruner {
  readonly #ctx: EngineContext;
  readonly #tasks: () => readonly string[];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #sweep: Promise<void> = Promise.resolve();
  #stopped = false;

  /** `tasks`: the names this instance runs now (empty while it does not lead). */
  constructor(ctx: EngineContext, tasks: () => readonly string[]) {
    this.#ctx = ctx;
    this.#tasks = tasks;
  }

  start(): void {
    if (!this.#ctx.records.store.pruneRuns || this.#stopped) return;
    this.#schedule();
  }

  /** Stops the timer and waits for a sweep in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#sweep;
  }

  /** One pass over the tasks (also what the timer runs). */
  async sweep(): Promise<void> {
    const { records: { store }, runs: { retention: runRetention }, logger } = this.#ctx;
    for (const task of this.#tasks()) {
      if (this.#stopped) return;
      try {
        await store.pruneRuns?.(task, runRetention);
      } catch (error) {
        logger.warn("cannot drop old run records", { task_name: task, error: errorMessage(error) });
      }
    }
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#sweep = this.sweep().finally(() => {
        if (!this.#stopped) this.#schedule();
      });
    }, pruneIntervalMs(this.#ctx.runs.retention.maxAgeMs));
  }
}
