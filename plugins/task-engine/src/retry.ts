/**
 * @module Retrying a failed apply as CTS does in daemon runs: two more attempts, after a random
 * wait in [1, 1.5) s and then in [2, 3) s.
 */
import { sleep } from "../../../core/plugin-api/mod.ts";

/** Waits before attempt n (1-based retry count); n = 1 → [1000, 1500) ms, n = 2 → [2000, 3000) ms. */
export function retryDelayMs(retry: number, random: () => number = Math.random): number {
  const base = 1000 * 2 ** (retry - 1);
  return base + random() * base * 0.5;
}

/** Runs `attempt` up to `1 + retries` times; rethrows the last error. Waits end early on `signal`. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  retries: number,
  signal: AbortSignal,
  onRetry?: (retry: number, error: unknown) => void,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= retries || signal.aborted) throw error;
      onRetry?.(retry + 1, error);
      await sleep(retryDelayMs(retry + 1), signal);
      if (signal.aborted) throw error;
    }
  }
}

/**
 * Waits before start-up retry n of a task whose state lock outlasted the driver's own wait: 5 s
 * doubling to 5 min. Each attempt waits for the lock again (lock_timeout), so this only spaces them.
 */
export function lockedRetryDelayMs(retry: number): number {
  return Math.min(300_000, 5000 * 2 ** (retry - 1));
}
