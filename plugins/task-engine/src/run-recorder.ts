/**
 * @module One task's run history and live events: turns each run and each skipped trigger into a
 * `RunRecord` (why it ran, what in its inputs changed since the previous run, what the driver did),
 * publishes `run.started`/`run.ended` and `task.status` on the daemon's event bus, and stores the
 * final record. Only ids, keys and field names enter a record (see input-change.ts), never values,
 * env or provider settings; a failing store or bus never fails a run.
 */
import type {
  InputChange, Logger, PlanSummary, RunKind, RunRecord, SkipReason, TaskInputs, TaskStatus, TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import { diffInputs, digestInputs, type InputDigest } from "./input-change.ts";
import { cleanRecord } from "./clean-record.ts";

let lastIdMs = 0;

/** Ids sort by start time: 13 digits of milliseconds (kept increasing within the process) and a random tail. */
export function newRunId(now = Date.now()): string {
  const ms = (lastIdMs = Math.max(now, lastIdMs + 1));
  return `${String(ms).padStart(13, "0")}-${crypto.randomUUID().slice(0, 8)}`;
}

/** The change of a trigger whose inputs equal the previous run's: empty lists for what the task renders. */
export function unchangedInputs(inputs: TaskInputs): InputChange {
  const none = { added: [], removed: [], changed: [] };
  return {
    services: none,
    ...(inputs.consul_kv ? { consul_kv: none } : {}),
    ...(inputs.catalog_services ? { catalog_services: none } : {}),
  };
}

/** What a run's end adds to its record. */
export interface RunEnd {
  readonly outcome: "applied" | "failed" | "skipped" | "checked" | "cancelled";
  readonly error?: string;
  readonly plan?: PlanSummary;
  readonly eventId?: string;
  readonly skipReason?: SkipReason;
  /** Fields a kind of record adds at its end (a drift check's `drift`, a destroy's `resources_left`). */
  readonly extra?: Partial<RunRecord>;
}

/** A started record; `end` finishes, publishes and stores it. */
export interface OpenRun {
  readonly record: RunRecord;
  end(end: RunEnd): Promise<RunRecord>;
}

/** The inputs of a run about to start: the change against the previous run, and the digest it becomes. */
export interface PendingInputs {
  readonly change: InputChange;
  readonly digest?: InputDigest;
}

export class RunRecorder {
  readonly #task: () => string;
  readonly #ctx: EngineContext;
  readonly #logger: Logger;
  /** The previous run's inputs, as digests (undefined before the first run in this process). */
  #previous: InputDigest | undefined;
  #published: { status: TaskStatus; enabled: boolean } | undefined;

  constructor(task: () => string, ctx: EngineContext, logger: Logger) {
    this.#task = task;
    this.#ctx = ctx;
    this.#logger = logger;
  }

  /** The change `inputs` make against the previous run's; `begin` adopts them as the new previous. */
  compare(inputs: TaskInputs): PendingInputs {
    const digest = digestInputs(inputs);
    return { change: diffInputs(this.#previous, digest), digest };
  }

  /** Starts a record and publishes `run.started`; `kind` is left out for a run (`apply`). */
  begin(trigger: TriggerReason, pending: PendingInputs = { change: {} }, kind?: RunKind): OpenRun {
    if (pending.digest) this.#previous = pending.digest;
    const started = Date.now();
    const record: RunRecord = cleanRecord({
      id: newRunId(started),
      task: this.#task(),
      trigger,
      change: pending.change,
      outcome: "running",
      started_at: new Date(started).toISOString(),
      instance_id: this.#ctx.instanceId,
      ...(kind && kind !== "apply" ? { kind } : {}),
    }, this.#ctx.secrets);
    this.#publish({ type: "run.started", run: record });
    return { record, end: (end) => this.#end(record, started, end) };
  }

  /** A trigger that did not run the driver: one record, started and ended at once. */
  skipped(trigger: TriggerReason, reason: SkipReason, change: InputChange = {}, eventId?: string): Promise<RunRecord> {
    return this.begin(trigger, { change }).end({ outcome: "skipped", skipReason: reason, ...(eventId ? { eventId } : {}) });
  }

  /** Publishes `task.status` when the status or the enabled flag differs from what was last published. */
  noteStatus(status: TaskStatus, enabled: boolean): void {
    const last = this.#published;
    if (last && last.status === status && last.enabled === enabled) return;
    this.#published = { status, enabled };
    this.#publish({ type: "task.status", task: this.#task(), status, enabled });
  }

  async #end(open: RunRecord, started: number, end: RunEnd): Promise<RunRecord> {
    const ended = Date.now();
    const record: RunRecord = cleanRecord({
      ...open,
      outcome: end.outcome,
      ...(end.plan ? { plan: end.plan } : {}),
      ...(end.error !== undefined ? { error: end.error } : {}),
      ended_at: new Date(ended).toISOString(),
      duration_ms: ended - started,
      ...(end.eventId ? { event_id: end.eventId } : {}),
      ...(end.skipReason ? { skip_reason: end.skipReason } : {}),
      ...end.extra,
    }, this.#ctx.secrets);
    this.#publish({ type: "run.ended", run: record });
    const store = this.#ctx.store;
    if (store.putRun) {
      try {
        await store.putRun(record, this.#ctx.runRetention);
      } catch (error) {
        this.#logger.error("cannot store run record", { error: errorMessage(error) });
      }
    }
    return record;
  }

  #publish(event: Parameters<EngineContext["daemonEvents"]["publish"]>[0]): void {
    try {
      this.#ctx.daemonEvents.publish(event);
    } catch (error) {
      this.#logger.error("cannot publish daemon event", { error: errorMessage(error) });
    }
  }
}
