/**
 * @module Fault injection for clients' error handling: a 429 every Nth request with
 * `X-RateLimit-Reset` (the real per-second limit is rate-limiter.ts, on by default), 5xx every Nth
 * request, slow run queues, failing configuration uploads, and runs stopped for a policy override.
 * Counters are deterministic so tests can rely on them.
 */
import { ApiError } from "./api-error.ts";
import { errorResponse } from "./json-api.ts";

export interface TfcDevFaults {
  /** Answer every Nth API request with 429. */
  readonly rateLimitEvery?: number;
  /** `X-RateLimit-Reset` of an every-Nth 429, in seconds. @default 1 */
  readonly rateLimitResetSeconds?: number;
  /** Answer every Nth API request (counted after rate limiting) with `serverErrorStatus`. */
  readonly serverErrorEvery?: number;
  /** @default 503 */
  readonly serverErrorStatus?: number;
  /** Runs wait this long in `plan_queued` and again in `apply_queued`. */
  readonly queueDelayMs?: number;
  /** Every Nth configuration upload fails: the configuration version becomes `errored`. */
  readonly uploadErrorEvery?: number;
  /** Runs with changes to apply stop in `policy_override`, as a soft-failed policy leaves them, until discarded. */
  readonly policyOverride?: boolean;
}

const TOO_MANY = new ApiError(429, "Too many requests", "You have exceeded the API's rate limit.");

export class FaultInjector {
  #faults: TfcDevFaults;
  #requests = 0;
  #served = 0;
  #uploads = 0;

  constructor(faults: TfcDevFaults = {}) {
    this.#faults = faults;
  }

  get current(): TfcDevFaults {
    return this.#faults;
  }

  /** Replaces the active faults and restarts their counters. */
  set(faults: TfcDevFaults): void {
    this.#faults = faults;
    this.#requests = this.#served = this.#uploads = 0;
  }

  queueDelayMs(): number {
    return this.#faults.queueDelayMs ?? 0;
  }

  policyOverride(): boolean {
    return this.#faults.policyOverride === true;
  }

  /** A fault answer for the next API request, or undefined to serve it normally. */
  intercept(): Response | undefined {
    const f = this.#faults;
    this.#requests++;
    if (f.rateLimitEvery && this.#requests % f.rateLimitEvery === 0) return this.#tooMany(f.rateLimitResetSeconds ?? 1);
    this.#served++;
    if (f.serverErrorEvery && this.#served % f.serverErrorEvery === 0) {
      const status = f.serverErrorStatus ?? 503;
      return errorResponse(new ApiError(status, status === 503 ? "Service Unavailable" : "Internal Server Error", "Injected fault"));
    }
    return undefined;
  }

  /** True when this upload is one that must fail. */
  uploadFails(): boolean {
    const every = this.#faults.uploadErrorEvery;
    return every !== undefined && every > 0 && ++this.#uploads % every === 0;
  }

  #tooMany(resetSeconds: number): Response {
    return errorResponse(TOO_MANY, { "X-RateLimit-Reset": resetSeconds.toFixed(3) });
  }
}
