/**
 * @module HCP Terraform's API rate limit, enforced as the real service does so that clients (and
 * the terraform-cloud driver's benchmark) meet it here first: at most `limit` requests a second per
 * token (requests without one share one budget), a 429 JSON:API error past it, and on every
 * answer `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the
 * one-second window reopens, as go-tfe reads it).
 */
import { ApiError } from "./api-error.ts";
import { errorResponse } from "./json-api.ts";

/** HCP Terraform's documented limit: 30 requests a second. */
export const HCP_TERRAFORM_RATE_LIMIT = 30;

interface Window {
  start: number;
  count: number;
}

const TOO_MANY = new ApiError(429, "Too many requests", "You have exceeded the API's rate limit.");

export class RateLimiter {
  readonly limit: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, Window>();
  /** 429 answers given (tests and benches read it). */
  refused = 0;

  /** `limit` 0 switches limiting off (the headers go too). */
  constructor(limit: number, now: () => number = Date.now) {
    this.limit = limit;
    this.#now = now;
  }

  /** Headers that announce the limit without spending it (ping, where go-tfe reads it). */
  announce(): Record<string, string> {
    return this.limit > 0 ? { "X-RateLimit-Limit": String(this.limit) } : {};
  }

  /** Spends one request of `key`: the headers to answer with, and a 429 answer when over the limit. */
  admit(key: string): { readonly headers: Record<string, string>; readonly refusal?: Response } {
    if (this.limit <= 0) return { headers: {} };
    const at = this.#now();
    let window = this.#windows.get(key);
    if (!window || at - window.start >= 1000) {
      window = { start: at, count: 0 };
      this.#windows.set(key, window);
      this.#forgetIdle(at);
    }
    window.count++;
    const headers = {
      "X-RateLimit-Limit": String(this.limit),
      "X-RateLimit-Remaining": String(Math.max(0, this.limit - window.count)),
      "X-RateLimit-Reset": ((window.start + 1000 - at) / 1000).toFixed(3),
    };
    if (window.count <= this.limit) return { headers };
    this.refused++;
    return { headers, refusal: errorResponse(TOO_MANY, headers) };
  }

  /** Windows of tokens not seen for a while go, so wrong tokens cannot grow the map for ever. */
  #forgetIdle(at: number): void {
    if (this.#windows.size < 1024) return;
    for (const [key, window] of this.#windows) if (at - window.start >= 1000) this.#windows.delete(key);
  }
}
