/**
 * @module Index-based blocking reads (Consul's blockingquery loop): answer at once when `index` is 0
 * or the result is newer; otherwise park on the query's topics until woken, timed out or disconnected,
 * re-run, and repeat. Spurious wake-ups just re-park.
 */
import type { WatchHub } from "../state/watch-hub.ts";
import type { QueryMemo } from "./query-memo.ts";
import type { ReadOptions } from "./query-options.ts";

export interface QueryRun<T> {
  readonly index: number;
  readonly value: T;
}

/** What a blocking read needs from its request: the state, the disconnect signal, the shared memo. */
export interface BlockingContext {
  readonly state: { readonly hub: WatchHub; readonly clock: { readonly current: number } };
  readonly signal?: AbortSignal;
  readonly memo?: { readonly key: string; readonly cache: QueryMemo };
}

export async function blockingQuery<T>(
  ctx: BlockingContext,
  options: ReadOptions,
  topics: readonly string[],
  compute: () => QueryRun<T>,
): Promise<QueryRun<T>> {
  const { hub } = ctx.state;
  const signal = ctx.signal;
  const memo = ctx.memo;
  const run = memo ? () => memo.cache.run(memo.key, ctx.state.clock.current, compute) : compute;
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
