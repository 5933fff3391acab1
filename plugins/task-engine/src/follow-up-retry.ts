/**
 * @module One task's retries of a failed run under the retry policy (retry-policy.ts): after a failed
 * run it waits, then asks for a run with the reason `retry`; a success or a new change (supersede)
 * starts the count again, and a stop (step-down, delete, shutdown) cancels the wait.
 */
import { errorMessage, type Logger, type TriggerReason } from "../../../core/plugin-api/mod.ts";
import { type RetryPolicy, retryWaitMs } from "./retry-policy.ts";

export interface RetryRun {
  readonly reason: TriggerReason;
  /** The error of the run this one retries (kept in its run record). */
  readonly previousError: string;
}

export class FollowUpRetry {
  readonly #policy: RetryPolicy;
  readonly #logger: Logger;
  readonly #run: (retry: RetryRun) => void;
  /** Retries made since the last success or change. */
  #count = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(policy: RetryPolicy, logger: Logger, run: (retry: RetryRun) => void) {
    this.#policy = policy;
    this.#logger = logger;
    this.#run = run;
  }

  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /** A run failed: the next retry is scheduled, or the retries are spent (then the next change runs it). */
  failed(error: string): void {
    this.cancel();
    const { maxRetries } = this.#policy;
    if (maxRetries === 0) return;
    if (this.#count >= maxRetries) {
      this.#logger.warn("run failed and its retries are spent; the task runs again on its next trigger", { retries: maxRetries });
      this.#count = 0;
      return;
    }
    const n = ++this.#count;
    const waitMs = retryWaitMs(this.#policy, n);
    this.#logger.warn("run failed; it will be retried", { retry: n, of: maxRetries, in_ms: waitMs });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.#run({ reason: { kind: "retry", detail: `retry ${n} of ${maxRetries}` }, previousError: error });
      } catch (cause) {
        this.#logger.error("cannot start the retry", { error: errorMessage(cause) });
      }
    }, waitMs);
  }

  /** A run succeeded: the next failure starts counting again. */
  succeeded(): void {
    this.cancel();
    this.#count = 0;
  }

  /** A new change (or a run asked for through the API) replaces the retry. */
  supersede(): void {
    if (this.pending) this.#logger.debug("pending retry superseded by a new run");
    this.succeeded();
  }

  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
