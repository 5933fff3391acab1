/**
 * @module The output of a run in progress, as the driver tells it: cut into whole lines, cleaned
 * (colour codes removed, secrets masked: a line is masked whole, so a secret never straddles two
 * chunks), kept bounded per phase for the run's record, and published as `run.output` events a few
 * times a second, so a page can follow an apply live without an event per line.
 */
import type { RunFindings, RunLog, RunObserver, RunPhase } from "../../../core/plugin-api/mod.ts";
import { lastBytes, RunLogBuffer, utf8Bytes } from "./run-log-buffer.ts";

/** How long output waits to be published with what follows it. */
export const OUTPUT_FLUSH_MS = 200;
/** A line longer than this (a progress bar without newlines) is published unfinished. */
const MAX_PENDING = 16 * 1024;
/**
 * At most this much of one flush is published (its end): a flood of output must not become events
 * of megabytes sent to every stream client. The record keeps it (within its bound); a page sees
 * the gap from the offsets and says so.
 */
export const MAX_EVENT_BYTES = 32 * 1024;

export interface LiveOutputOptions {
  /** The most bytes of output a phase keeps. */
  readonly limitBytes: number;
  /** Colour codes removed, secrets masked. */
  readonly clean: (text: string) => string;
  /** Publishes a cleaned chunk; `offset` is the bytes of the phase's output before it. */
  readonly publish: (phase: RunPhase, offset: number, text: string) => void;
}

interface PhaseOutput {
  pending: string;
  readonly log: RunLogBuffer;
}

export class LiveOutput implements RunObserver {
  readonly #options: LiveOutputOptions;
  readonly #phases = new Map<RunPhase, PhaseOutput>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #findings: RunFindings = {};

  constructor(options: LiveOutputOptions) {
    this.#options = options;
  }

  output(phase: RunPhase, chunk: string): void {
    if (this.#closed || chunk === "") return;
    const state = this.#phase(phase);
    state.pending += chunk;
    if (state.pending.length > MAX_PENDING) this.#flushPhase(phase, state, true);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.flush(false);
    }, OUTPUT_FLUSH_MS);
  }

  findings(findings: RunFindings): void {
    if (this.#closed) return;
    this.#findings = {
      ...this.#findings, ...findings, phases_ms: { ...this.#findings.phases_ms, ...findings.phases_ms },
    };
  }

  /** What the driver told while it ran, with `last` (its answer) on top. */
  heardFindings(last: RunFindings | undefined): RunFindings {
    if (!last) return this.#findings;
    return { ...this.#findings, ...last, phases_ms: { ...this.#findings.phases_ms, ...last.phases_ms } };
  }

  /** True once `phase` produced output (published or waiting). */
  heard(phase: RunPhase): boolean {
    const state = this.#phases.get(phase);
    return state !== undefined && (state.pending !== "" || state.log.bytes > 0);
  }

  /** Publishes whole lines (and, when `all`, the unfinished last line too). */
  flush(all: boolean): void {
    for (const [phase, state] of this.#phases) this.#flushPhase(phase, state, all);
  }

  /** What has been published, per phase: a running run's record shows this. */
  logs(): Partial<Record<RunPhase, RunLog>> {
    const out: Partial<Record<RunPhase, RunLog>> = {};
    for (const [phase, state] of this.#phases) if (state.log.bytes > 0) out[phase] = state.log.snapshot();
    return out;
  }

  /** Publishes everything left and stops listening; returns the final logs. */
  close(): Partial<Record<RunPhase, RunLog>> {
    if (!this.#closed) {
      this.flush(true);
      this.#closed = true;
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    return this.logs();
  }

  #phase(phase: RunPhase): PhaseOutput {
    let state = this.#phases.get(phase);
    if (!state) {
      state = { pending: "", log: new RunLogBuffer(this.#options.limitBytes) };
      this.#phases.set(phase, state);
    }
    return state;
  }

  #flushPhase(phase: RunPhase, state: PhaseOutput, all: boolean): void {
    const end = all ? state.pending.length : state.pending.lastIndexOf("\n") + 1;
    if (end <= 0) return;
    const raw = state.pending.slice(0, end);
    state.pending = state.pending.slice(end);
    const text = this.#options.clean(raw);
    if (text === "") return;
    const offset = state.log.bytes;
    state.log.append(text);
    const bytes = utf8Bytes(text);
    if (bytes <= MAX_EVENT_BYTES) {
      this.#options.publish(phase, offset, text);
      return;
    }
    const last = lastBytes(text, MAX_EVENT_BYTES);
    this.#options.publish(phase, offset + bytes - utf8Bytes(last), last);
  }
}
