/**
 * @module One task's run queue: runs are serialised, and requests that arrive during a run are
 * coalesced into exactly one follow-up run, which reads the newest inputs when it starts.
 *
 * So a change during a slow apply is never lost (it gets its own run afterwards) and never run
 * twice (ten changes during one apply make one follow-up run). Work that must not overlap a run
 * (a drift check, a destroy, an update) goes through `exclusive`: it waits for the run in
 * progress, and runs requested meanwhile wait for it.
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
  /** True while the drain loop is active (a run in progress, or one waiting for exclusive work). */
  #running = false;
  #executing = false;
  #pending: Pending<R> | undefined;
  #idleWaiters: (() => void)[] = [];
  /** The run in progress (settled when none). */
  #current: Promise<unknown> = Promise.resolve();
  /** Set while exclusive work holds the queue; runs wait for it. */
  #gate: Promise<void> | undefined;

  constructor(execute: (request: RunRequest) => Promise<R>) {
    this.#execute = execute;
  }

  /** True while a run is in progress. */
  get running(): boolean {
    return this.#executing;
  }

  /** True while a run or exclusive work is in progress. */
  get busy(): boolean {
    return this.#running || this.#gate !== undefined;
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
    if (!this.busy) this.#settle();
  }

  /** Resolves when nothing runs and nothing is queued. */
  whenIdle(): Promise<void> {
    if (!this.busy && !this.#pending) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Runs `work` once the run in progress ended; no run starts until it settles. One at a time.
   * `work` must not wait for a run it requests (that run waits for `work`).
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.#gate) await this.#gate;
    let open!: () => void;
    this.#gate = new Promise((resolve) => (open = resolve));
    try {
      await this.#current;
      return await work();
    } finally {
      this.#gate = undefined;
      open();
      if (!this.#running) this.#settle();
    }
  }

  async #drain(): Promise<void> {
    this.#running = true;
    while (this.#pending) {
      while (this.#gate) await this.#gate;
      if (!this.#pending) break;
      const { request, waiters } = this.#pending;
      this.#pending = undefined;
      let result: R | undefined;
      try {
        this.#executing = true;
        const current = this.#execute(request);
        this.#current = current.catch(() => undefined);
        result = await current;
      } catch {
        // The executor records its own failures; a throw must not wedge the queue.
        result = undefined;
      } finally {
        this.#executing = false;
      }
      for (const resolve of waiters) resolve(result);
    }
    this.#running = false;
    if (!this.#gate) this.#settle();
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
