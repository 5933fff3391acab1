/**
 * @module One task's run queue: runs are serialised, and requests that arrive during a run are
 * coalesced into exactly one follow-up run, which reads the newest inputs when it starts.
 *
 * So a change during a slow apply is never lost (it gets its own run afterwards) and never run
 * twice (ten changes during one apply make one follow-up run).
 */
import type { TriggerReason } from "../../../core/plugin-api/mod.ts";

export interface RunRequest {
  readonly reason: TriggerReason;
  /** Apply even when the inputs equal the last applied ones (API run=now, enable run=now). */
  readonly force: boolean;
  /** Retry a failed apply within the run, as CTS does (daemon dynamic runs only). */
  readonly retries: boolean;
  /** The error of the failed run this one retries (reason `retry`), for its run record. */
  readonly previousError?: string;
  /** false: a failure is not retried by the retry policy (the caller retries it its own way). */
  readonly followUp?: boolean;
}

interface Pending<R> {
  request: RunRequest;
  waiters: ((result: R | undefined) => void)[];
}

export class RunQueue<R> {
  readonly #execute: (request: RunRequest) => Promise<R>;
  #running = false;
  #pending: Pending<R> | undefined;
  #idleWaiters: (() => void)[] = [];

  constructor(execute: (request: RunRequest) => Promise<R>) {
    this.#execute = execute;
  }

  get running(): boolean {
    return this.#running;
  }

  get queued(): boolean {
    return this.#pending !== undefined;
  }

  /** Resolves with the result of the run that served this request (undefined if dropped). */
  request(request: RunRequest): Promise<R | undefined> {
    return new Promise((resolve) => {
      if (this.#pending) {
        this.#pending.request = merge(this.#pending.request, request);
        this.#pending.waiters.push(resolve);
      } else {
        this.#pending = { request, waiters: [resolve] };
      }
      if (!this.#running) void this.#drain();
    });
  }

  /** Forgets the queued run (task deleted, instance stepped down); a run in progress finishes. */
  drop(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    for (const resolve of pending?.waiters ?? []) resolve(undefined);
    if (!this.#running) this.#settle();
  }

  /** Resolves when nothing runs and nothing is queued. */
  whenIdle(): Promise<void> {
    if (!this.#running && !this.#pending) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async #drain(): Promise<void> {
    this.#running = true;
    while (this.#pending) {
      const { request, waiters } = this.#pending;
      this.#pending = undefined;
      let result: R | undefined;
      try {
        result = await this.#execute(request);
      } catch {
        // The executor records its own failures; a throw must not wedge the queue.
        result = undefined;
      }
      for (const resolve of waiters) resolve(result);
    }
    this.#running = false;
    this.#settle();
  }

  #settle(): void {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** A forced request keeps its reason (it is why the run must apply); otherwise the newest wins. */
function merge(queued: RunRequest, next: RunRequest): RunRequest {
  const winner = queued.force && !next.force ? queued : next;
  return { ...winner, force: queued.force || next.force, retries: queued.retries || next.retries };
}
