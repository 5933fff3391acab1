/**
 * @module A task's CTS events: the newest kept in memory for status, each masked, then told to
 * listeners (metrics) and stored, held while the task being created is not stored yet.
 */
import type { Logger, TaskEvent } from "../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../core/plugin-api/mod.ts";
import { cleanEvent } from "./clean-record.ts";
import type { EngineContext } from "./engine-context.ts";
import type { HeldEffects } from "./held-effects.ts";
import type { RunRecorder } from "./run-recorder.ts";
import { pushEvent } from "./task-event.ts";
import { taskStatus } from "./task-status.ts";

export class TaskEventLog {
  readonly #ctx: EngineContext;
  readonly #logger: Logger;
  readonly #effects: HeldEffects;
  readonly #recorder: RunRecorder;
  readonly #enabled: () => boolean;
  #events: TaskEvent[];

  constructor(events: readonly TaskEvent[], parts: {
    ctx: EngineContext; logger: Logger; effects: HeldEffects; recorder: RunRecorder; enabled: () => boolean;
  }) {
    this.#ctx = parts.ctx;
    this.#logger = parts.logger;
    this.#effects = parts.effects;
    this.#recorder = parts.recorder;
    this.#enabled = parts.enabled;
    this.#events = events.slice(0, parts.ctx.records.eventLimit);
  }

  get events(): readonly TaskEvent[] {
    return this.#events;
  }

  async record(recorded: TaskEvent): Promise<TaskEvent> {
    const event = cleanEvent(recorded, this.#ctx.records.secrets);
    this.#events = pushEvent(this.#events, event, this.#ctx.records.eventLimit);
    this.#recorder.noteStatus(taskStatus(this.#events, this.#ctx.records.eventLimit), this.#enabled());
    await this.#effects.run(async () => {
      for (const listener of this.#ctx.records.listeners) {
        // A listener (metrics) must never break a run.
        try {
          listener(event);
        } catch (error) {
          this.#logger.error("event listener failed", { error: errorMessage(error) });
        }
      }
      try {
        await this.#ctx.records.store.addEvent(event, this.#ctx.records.eventLimit);
      } catch (error) {
        this.#logger.error("cannot store task event", { error: errorMessage(error) });
      }
    });
    return event;
  }
}
