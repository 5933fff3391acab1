/**
 * @module One request budget per driver block (one token): HCP Terraform allows 30 API requests a
 * second per user, and every task shares it. A token bucket paced as go-tfe paces itself (two
 * thirds of `X-RateLimit-Limit` a second, a burst of a third), handed out in turn to the tasks that
 * wait (round robin: a task with a thousand polls cannot starve another's one write). Answers tune
 * it: `X-RateLimit-Limit` sets the pace; when `X-RateLimit-Remaining` is no more than the requests
 * still on their way (they will count in the same window), and on a 429, everyone pauses until
 * `X-RateLimit-Reset`. A 429 also slows the pace (by a quarter, to half at most), which recovers
 * answer by answer: requests that reach the server late (a slow network, a busy process) land in
 * the next window with the ones after them, and only a slower pace leaves room for that.
 */

/** HCP Terraform's documented limit, used until the server says otherwise. */
export const DEFAULT_RATE_LIMIT = 30;

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal | undefined;
  onAbort?: () => void;
}

export interface RequestBudgetOptions {
  /** Requests a second the server allows. @default 30 */
  readonly limitPerSecond?: number;
  /** For tests. */
  readonly now?: () => number;
}

export class RequestBudget {
  readonly #now: () => number;
  #limit = 0;
  /** The share of go-tfe's pace in force: 1, or less after 429s. */
  #pace = 1;
  #ratePerMs = 0;
  #burst = 0;
  #tokens = 0;
  #updatedAt: number;
  #pausedUntil = 0;
  /** Requests handed a token whose answer has not been noted yet. */
  #inFlight = 0;
  /** Owners with waiters, in the order they are served next. */
  readonly #queues = new Map<string, Waiter[]>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** 429 answers seen (benches and tests read it). */
  throttled = 0;

  constructor(options: RequestBudgetOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#updatedAt = this.#now();
    this.#configure(options.limitPerSecond ?? DEFAULT_RATE_LIMIT);
    this.#tokens = this.#burst;
  }

  get limitPerSecond(): number {
    return this.#limit;
  }

  #configure(limit: number, pace = this.#pace): void {
    if (!(limit > 0) || (limit === this.#limit && pace === this.#pace)) return;
    this.#limit = limit;
    this.#pace = pace;
    this.#ratePerMs = (limit * 0.66 * pace) / 1000;
    this.#burst = Math.max(1, Math.floor(limit * 0.33 * pace));
    this.#tokens = Math.min(this.#tokens, this.#burst);
  }

  /** Resolves when `owner` may send one request; rejects when `signal` aborts first. */
  take(owner: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      const queue = this.#queues.get(owner);
      if (queue) queue.push(waiter);
      else this.#queues.set(owner, [waiter]);
      if (signal) {
        waiter.onAbort = () => this.#cancel(owner, waiter);
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.#pump();
    });
  }

  /** A request handed a token got no answer (a transport failure): it no longer counts as on its way. */
  noteNoAnswer(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** What an answer says about the limit. `status` 429 pauses every owner until the reset. */
  noteAnswer(status: number, headers: Readonly<Record<string, string>>): void {
    this.noteNoAnswer();
    const limit = Number(headers["x-ratelimit-limit"]);
    // Slower after a 429; back to full pace after a few hundred answers without one.
    const pace = status === 429 ? Math.max(0.5, this.#pace * 0.75) : Math.min(1, this.#pace + 0.002);
    this.#configure(Number.isFinite(limit) ? limit : this.#limit, pace);
    const reset = Number(headers["x-ratelimit-reset"]);
    const remaining = Number(headers["x-ratelimit-remaining"]);
    // Requests on their way count in the same window as this answer's `remaining`.
    const exhausted = status === 429 || (headers["x-ratelimit-remaining"] !== undefined && remaining <= this.#inFlight);
    if (status === 429) this.throttled++;
    if (!exhausted) return;
    // Without a reset time, wait one second: the documented limit is per second.
    const waitMs = Number.isFinite(reset) && reset >= 0 ? reset * 1000 : 1000;
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + waitMs);
    this.#tokens = 0;
    this.#pump();
  }

  #cancel(owner: string, waiter: Waiter): void {
    const queue = this.#queues.get(owner);
    const index = queue?.indexOf(waiter) ?? -1;
    if (index < 0) return;
    queue!.splice(index, 1);
    if (queue!.length === 0) this.#queues.delete(owner);
    waiter.reject(waiter.signal?.reason);
  }

  #refill(at: number): void {
    this.#tokens = Math.min(this.#burst, this.#tokens + (at - this.#updatedAt) * this.#ratePerMs);
    this.#updatedAt = at;
  }

  #pump(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    for (;;) {
      const next = this.#queues.entries().next();
      if (next.done) return;
      const at = this.#now();
      this.#refill(at);
      const wait = Math.max(this.#pausedUntil - at, this.#tokens >= 1 ? 0 : (1 - this.#tokens) / this.#ratePerMs);
      if (wait > 0) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#pump();
        }, Math.ceil(wait));
        return;
      }
      const [owner, queue] = next.value;
      const waiter = queue.shift()!;
      // Served: the owner goes to the back of the line.
      this.#queues.delete(owner);
      if (queue.length > 0) this.#queues.set(owner, queue);
      this.#tokens -= 1;
      this.#inFlight++;
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.resolve();
    }
  }
}
