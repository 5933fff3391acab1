/**
 * @module A schedule condition's timer: asks for a run at every cron time, renders no data.
 *
 * Whether a scheduled run applies (inputs changed) or only records an event is the engine's
 * decision, as in CTS; this source only keeps time.
 */
import { Cron } from "croner";
import type { InputContext, InputSource } from "../../../core/plugin-api/mod.ts";
import { toCronerPattern } from "./cron-expression.ts";

export class ScheduleSource implements InputSource {
  readonly #expression: string;
  readonly #taskName: string;
  #job: Cron | undefined;

  constructor(expression: string, taskName: string) {
    this.#expression = expression;
    this.#taskName = taskName;
  }

  start(ctx: InputContext): Promise<void> {
    if (this.#job || ctx.signal.aborted) return Promise.resolve();
    const logNext = () => {
      const next = job.nextRun();
      if (!next) return ctx.logger.warn("scheduled task has no next run time", { task_name: this.#taskName });
      ctx.logger.info("scheduled task next run time", {
        task_name: this.#taskName, wait_time: `${Math.max(0, next.getTime() - Date.now())}ms`, next_runtime: next.toISOString(),
      });
    };
    // NOTE: `protect` skips a tick while the previous callback still runs; triggering is synchronous anyway.
    const job = new Cron(toCronerPattern(this.#expression), { protect: true }, () => {
      ctx.trigger({ kind: "schedule", detail: this.#expression });
      logNext();
    });
    this.#job = job;
    ctx.signal.addEventListener("abort", () => this.stop(), { once: true });
    logNext();
    return Promise.resolve();
  }

  stop(): void {
    this.#job?.stop();
  }
}
