/**
 * @module One task's run history and live events: turns each run and each skipped trigger into a
 * `RunRecord` (why it ran, what in its inputs changed since the previous run, what the driver did:
 * its output per phase, resources, outputs, timing), publishes `run.started`, `run.output`,
 * `run.ended` and `task.status` on the daemon's event bus, and stores the final record. Of the
 * inputs only ids, keys and field names enter a record (see input-change.ts), never values;
 * everything a driver says is masked (secretMaskerToken) and stripped of colour codes first. A
 * failing store or bus never fails a run.
 */
import stripAnsi from "strip-ansi";
import type {
  InputChange, Logger, PlanSummary, RunFindings, RunKind, RunOutput, RunRecord, SkipReason, TaskInputs, TaskOutputs, TaskStatus,
  TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import { errorMessage, runSummary } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import type { HeldEffects } from "./held-effects.ts";
import { diffInputs, digestInputs, type InputDigest } from "./input-change.ts";
import { cleanRecord } from "./clean-record.ts";
import { LiveOutput } from "./live-output.ts";
import { cappedResources, keptOutputs } from "./run-findings.ts";

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
  readonly outcome: "applied" | "planned" | "failed" | "skipped" | "checked" | "cancelled";
  readonly error?: string;
  readonly plan?: PlanSummary;
  readonly eventId?: string;
  readonly skipReason?: SkipReason;
  /** Fields a kind of record adds at its end (a drift check's `drift`, a destroy's `resources_left`). */
  readonly extra?: Partial<RunRecord>;
  readonly url?: string;
  /** Resources and phase times the driver reported. */
  readonly findings?: RunFindings;
  readonly outputs?: Readonly<Record<string, RunOutput>>;
  /** Time of a driver initialisation this run waited for (or the first run after it). */
  readonly initMs?: number;
}

/** A started record; `end` finishes, publishes and stores it. */
export interface OpenRun {
  readonly record: RunRecord;
  /** Hands the driver's output to the record and the live event stream. */
  readonly observer: LiveOutput;
  /** The record as it stands, with the output published so far. */
  live(): RunRecord;
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
  /** Stores and publishes, held while the task is being created. */
  readonly #effects: HeldEffects | undefined;
  readonly #open = new Map<string, OpenRun>();
  #last: RunRecord | undefined;
  /** The outputs of the last successful apply; undefined while not known (no apply in this process yet). */
  #outputs: { readonly value: TaskOutputs | undefined } | undefined;

  constructor(task: () => string, ctx: EngineContext, logger: Logger, effects?: HeldEffects) {
    this.#task = task;
    this.#ctx = ctx;
    this.#logger = logger;
    this.#effects = effects;
  }

  /** The change `inputs` make against the previous run's; `begin` adopts them as the new previous. */
  compare(inputs: TaskInputs): PendingInputs {
    const digest = digestInputs(inputs);
    return { change: diffInputs(this.#previous, digest), digest };
  }

  /** The runs in progress, newest first (summaries). */
  get current(): RunRecord[] {
    return [...this.#open.values()].map((open) => open.record).reverse();
  }

  /** A run in progress by id, with its output so far. */
  live(id: string): RunRecord | undefined {
    return this.#open.get(id)?.live();
  }

  /** The last run that ended in this process and has a CTS event or applied (summary). */
  get last(): RunRecord | undefined {
    return this.#last;
  }

  /** The outputs of the last successful apply, when known: `{ value: undefined }` means it had none. */
  get outputs(): { readonly value: TaskOutputs | undefined } | undefined {
    return this.#outputs;
  }

  /** Remembers outputs read back from the store (a new leader, a restart). */
  noteOutputs(value: TaskOutputs | undefined): void {
    this.#outputs ??= { value };
  }

  /**
   * Starts a record and publishes `run.started`. `kind` is left out for a run (`apply`); a retry's
   * record carries the error it retries.
   */
  begin(trigger: TriggerReason, pending: PendingInputs = { change: {} }, extra: { kind?: RunKind; previousError?: string } = {}): OpenRun {
    const { kind, previousError } = extra;
    if (pending.digest) this.#previous = pending.digest;
    const started = Date.now();
    const record: RunRecord = cleanRecord({
      id: newRunId(started),
      task: this.#task(),
      ...(kind && kind !== "apply" ? { kind } : {}),
      trigger,
      change: pending.change,
      outcome: "running",
      started_at: new Date(started).toISOString(),
      instance_id: this.#ctx.instance.id,
      ...(previousError !== undefined ? { previous_error: previousError } : {}),
    }, this.#ctx.records.secrets);
    const output = new LiveOutput({
      limitBytes: this.#ctx.runs.outputBytes,
      clean: (text) => this.#clean(text),
      publish: (phase, offset, text) => this.#publish({ type: "run.output", task: record.task, run_id: record.id, phase, offset, text }),
    });
    const open: OpenRun = {
      record,
      observer: output,
      live: () => ({ ...record, logs: output.logs() }),
      end: (end) => {
        this.#open.delete(record.id);
        return this.#end(record, started, output, end);
      },
    };
    this.#open.set(record.id, open);
    this.#publish({ type: "run.started", run: record });
    return open;
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

  async #end(open: RunRecord, started: number, output: LiveOutput, end: RunEnd): Promise<RunRecord> {
    const ended = Date.now();
    const logs = output.close();
    const findings = output.heardFindings(end.findings);
    const phases = { ...(end.initMs !== undefined ? { init: end.initMs } : {}), ...findings.phases_ms };
    const outputs = keptOutputs(end.outputs, this.#ctx.records.secrets);
    const record: RunRecord = cleanRecord({
      ...open,
      outcome: end.outcome,
      ...(end.plan ? { plan: end.plan } : {}),
      ...(end.error !== undefined ? { error: this.#clean(end.error) } : {}),
      ended_at: new Date(ended).toISOString(),
      duration_ms: ended - started,
      ...(end.eventId ? { event_id: end.eventId } : {}),
      ...(end.skipReason ? { skip_reason: end.skipReason } : {}),
      ...(end.url ? { url: end.url } : {}),
      ...(Object.keys(phases).length > 0 ? { phases_ms: phases } : {}),
      ...(Object.keys(logs).length > 0 ? { logs } : {}),
      ...cappedResources(findings.resources),
      ...(outputs ? { outputs } : {}),
      ...end.extra,
    }, this.#ctx.records.secrets);
    const summary = runSummary(record);
    // The last run as CTS counts runs: an apply, or a skip it records an event for; not inspections,
    // drift checks, destroys, runs a hook cancelled, and not triggers dropped without an event.
    const counted = record.outcome === "skipped" ? record.event_id !== undefined : record.outcome !== "cancelled";
    if ((record.kind ?? "apply") === "apply" && counted) this.#last = summary;
    if (record.outcome === "applied" && (record.kind ?? "apply") === "apply") {
      this.#outputs = { value: outputs ? { run_id: record.id, outputs } : undefined };
    }
    // The event carries the summary: a page reads the logs from the record when it shows them.
    this.#publish({ type: "run.ended", run: summary });
    const store = this.#ctx.records.store;
    if (store.putRun) {
      await this.#effect(async () => {
        try {
          await store.putRun!(record, this.#ctx.runs.retention);
        } catch (error) {
          this.#logger.error("cannot store run record", { error: errorMessage(error) });
        }
      });
    }
    return record;
  }

  #clean(text: string): string {
    return this.#ctx.records.secrets.mask(stripAnsi(text));
  }

  #publish(event: Parameters<EngineContext["records"]["daemonEvents"]["publish"]>[0]): void {
    void this.#effect(() => {
      try {
        this.#ctx.records.daemonEvents.publish(event);
      } catch (error) {
        this.#logger.error("cannot publish daemon event", { error: errorMessage(error) });
      }
    });
  }

  #effect(effect: () => unknown): Promise<void> {
    return this.#effects ? this.#effects.run(effect) : Promise.resolve(effect()).then(() => {});
  }
}
