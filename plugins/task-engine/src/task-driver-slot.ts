/**
 * @module A task's driver instance over its life: created and initialised on demand (again after a
 * config or credential change), what it says while a run waits, and how long its last init took.
 */
import type { Driver, TaskConfig } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import { createTaskDriver } from "./task-driver.ts";

export class TaskDriverSlot {
  readonly #ctx: EngineContext;
  readonly #config: () => TaskConfig;
  readonly #newerRunQueued: () => boolean;
  #driver: Driver | undefined;
  /** Why the running run waits, as its driver says (cleared when the run ends). */
  #waiting: string | undefined;
  /** How long the last driver initialisation took, until a run record reports it. */
  #unreportedInitMs: number | undefined;

  constructor(config: () => TaskConfig, ctx: EngineContext, newerRunQueued: () => boolean) {
    this.#config = config;
    this.#ctx = ctx;
    this.#newerRunQueued = newerRunQueued;
  }

  /** The prepared driver (after `prepare`). */
  get driver(): Driver | undefined {
    return this.#driver;
  }
  get waiting(): string | undefined {
    return this.#waiting;
  }
  clearWaiting(): void {
    this.#waiting = undefined;
  }

  /** Creates the driver (again when `reinit`) and runs its `init`. */
  async prepare(reinit = false): Promise<void> {
    if (this.#driver && !reinit) return;
    const previous = this.#driver;
    this.#driver = undefined;
    await previous?.dispose?.();
    const started = Date.now();
    const driver = await createTaskDriver(this.#config(), this.#ctx, {
      waiting: (reason) => (this.#waiting = reason),
      newerRunQueued: this.#newerRunQueued,
    });
    await driver.init(this.#ctx.signal);
    this.#unreportedInitMs = Date.now() - started;
    this.#driver = driver;
  }

  /** The last initialisation's time, once: the run that follows it reports it. */
  takeInitMs(): number | undefined {
    const ms = this.#unreportedInitMs;
    this.#unreportedInitMs = undefined;
    return ms;
  }

  async dispose(): Promise<void> {
    const driver = this.#driver;
    this.#driver = undefined;
    await driver?.dispose?.();
  }
}
