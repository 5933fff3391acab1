/**
 * @module Index-based blocking reads (Consul's blockingquery loop): answer at once when `index` is 0
 * or the result is newer; otherwise park on the query's topics until woken, timed out or disconnected,
 * re-run, and repeat. Spurious wake-ups just re-park.
 */
import type { WatchHub } from "../state/watch-hub.ts";
import type { ReadOptions } from "./query-options.ts";

export interface QueryRun<T> {
  readonly index: number;
  readonly value: T;
}

export async function blockingQuery<T>(
  hub: WatchHub,
  options: ReadOptions,
  topics: readonly string[],
  run: () => QueryRun<T>,
  signal?: AbortSignal,
): Promise<QueryRun<T>> {
  let result = run();
  if (options.minIndex === 0 || result.index > options.minIndex) return result;
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0 || signal?.aborted || hub.closed) return result;
    await hub.wait(topics, remaining, signal);
    result = run();
    if (result.index > options.minIndex) return result;
  }
}
