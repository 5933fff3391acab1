/**
 * @module What a task watches: its condition and module-input sources, the inputs they published,
 * the buffer period between a change and its run, and whether Consul refuses one of its queries.
 */
import type { InputContext, InputSource, InputVariable, Logger, TaskConfig, TaskInputs, TriggerReason } from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage, isPermanentConsulError } from "../../../core/plugin-api/mod.ts";
import { BufferedTrigger } from "./buffered-trigger.ts";
import type { EngineContext } from "./engine-context.ts";
import { InputSlots } from "./input-slots.ts";
import { stoppedError } from "./run-guards.ts";

/** What the task does with what its sources tell (only the condition, source 0, triggers). */
export interface WatchListener {
  /** The condition saw a change (before any buffer period). */
  readonly triggered: (reason: TriggerReason) => void;
  /** The condition saw data that changes nothing it renders. */
  readonly unchanged: (reason: TriggerReason) => void;
  /** The buffer period ended: the run it held back is due. */
  readonly buffered: (reason: TriggerReason) => void;
  /** Consul refused one of the task's queries after its first data. */
  readonly queryRejected: (error: unknown) => void;
  /** A source failed to start: the task stops watching (and drops the runs it queued). */
  readonly startFailed: () => void;
}

export class TaskWatch {
  readonly #ctx: EngineContext;
  readonly #logger: Logger;
  readonly #listener: WatchListener;
  readonly #slots = new InputSlots();
  #sources: InputSource[] = [];
  #sourcesAbort: AbortController | undefined;
  #buffer: BufferedTrigger | undefined;
  #armed = false;
  /** Set once watching stopped (step-down, delete, discard): runs not yet started are skipped. */
  #halted = false;
  /** Set when Consul rejected a query before the first data: no run may use the missing inputs. */
  #inputsRejected: string | undefined;
  /** Set while Consul refuses one of the task's queries after its first data (cleared by new data). */
  #queryRejected: string | undefined;

  constructor(ctx: EngineContext, logger: Logger, listener: WatchListener) {
    this.#ctx = ctx;
    this.#logger = logger;
    this.#listener = listener;
  }

  get armed(): boolean {
    return this.#armed;
  }
  get halted(): boolean {
    return this.#halted;
  }
  get inputsRejected(): string | undefined {
    return this.#inputsRejected;
  }
  get queryRejected(): string | undefined {
    return this.#queryRejected;
  }
  /** Declared variables whose source has not published yet. */
  missing(): InputVariable[] {
    return this.#slots.missing();
  }
  current(): TaskInputs {
    return this.#slots.current();
  }
  fingerprinted(inputs: TaskInputs): unknown {
    return this.#slots.fingerprinted(inputs);
  }

  /** Starts the condition and module inputs; resolves once each published its first value. */
  async start(task: TaskConfig): Promise<void> {
    if (this.#sourcesAbort) return;
    const condition = this.#ctx.blocks.conditions.get(task.condition.type);
    if (!condition) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot start task "${task.name}": no condition type "${task.condition.type}" is registered`);
    }
    if (this.#ctx.signal.aborted) throw stoppedError(task.name);
    const sources = [condition.create(task.condition as Record<string, unknown>, task.name, task)];
    for (const input of task.module_input) {
      const factory = this.#ctx.blocks.moduleInputs.get(input.type);
      if (!factory) {
        throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot start task "${task.name}": no module_input type "${input.type}" is registered`);
      }
      sources.push(factory.create(input as unknown as Record<string, unknown>, task.name, task));
    }
    const buffer = task.buffer_period;
    if (!condition.unbuffered && buffer.enabled && buffer.min > 0) {
      this.#buffer = new BufferedTrigger(buffer.min, buffer.max, (reason) => {
        if (this.#armed) this.#listener.buffered(reason);
      });
    }
    const abort = new AbortController();
    this.#sourcesAbort = abort;
    this.#halted = false;
    // Kernel stop ends sources too, so a start that waits for an unreachable Consul returns.
    const onStop = () => abort.abort();
    this.#ctx.signal.addEventListener("abort", onStop, { once: true });
    abort.signal.addEventListener("abort", () => this.#ctx.signal.removeEventListener("abort", onStop), { once: true });
    this.#sources = sources;
    this.#slots.expect(sources);
    try {
      await Promise.all(sources.map((source, index) => source.start(this.#inputContext(index, abort.signal))));
    } catch (error) {
      if (isPermanentConsulError(error)) this.#inputsRejected = errorMessage(error);
      this.#listener.startFailed();
      throw error;
    }
    // A stop ends the sources' start early, with their first data maybe still missing: nothing may run on that.
    if (abort.signal.aborted) throw stoppedError(task.name);
  }

  /** From now on condition triggers queue runs (before this, first values only fill inputs). */
  arm(): void {
    this.#armed = true;
  }

  /** Holds a trigger for the buffer period when the task has one; false when it runs at once. */
  hold(reason: TriggerReason): boolean {
    if (!this.#buffer) return false;
    this.#buffer.poke(reason);
    return true;
  }

  /** Stops sources and drops a buffered run. */
  stop(): void {
    this.#armed = false;
    this.#halted = true;
    this.#sourcesAbort?.abort();
    this.#sourcesAbort = undefined;
    for (const source of this.#sources) {
      try {
        source.stop();
      } catch (error) {
        this.#logger.warn("input source failed to stop", { error: errorMessage(error) });
      }
    }
    this.#sources = [];
    this.#buffer?.cancel();
    this.#buffer = undefined;
  }

  /** Resolves when no buffered change is left. */
  async settled(): Promise<void> {
    await this.#buffer?.settled();
  }

  #inputContext(index: number, signal: AbortSignal): InputContext {
    return {
      watcher: this.#ctx.blocks.watcher,
      logger: this.#logger,
      signal,
      publish: (variable, value) => {
        if (signal.aborted) return;
        this.#queryRejected = undefined; // data arrived: the query answers again
        this.#slots.publish(index, variable, value);
      },
      observe: (value) => {
        if (signal.aborted) return;
        this.#queryRejected = undefined;
        this.#slots.observe(index, value);
      },
      // Only the condition (source 0) decides when the task runs; module inputs only supply data.
      trigger: (reason) => {
        if (index === 0 && !signal.aborted) this.#listener.triggered(reason);
      },
      unchanged: (reason) => {
        if (index !== 0 || signal.aborted || !this.#armed) return;
        this.#listener.unchanged(reason);
      },
      reportError: (error) => {
        if (signal.aborted) return;
        this.#queryRejected = errorMessage(error);
        this.#listener.queryRejected(error);
      },
    };
  }
}
