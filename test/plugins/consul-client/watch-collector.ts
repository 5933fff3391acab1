/** @module Collects a watch's results and lets a test wait (bounded by the test timeout) for one that matches. */
import type { ConsulQueryResult } from "../../../core/plugin-api/mod.ts";

export interface WatchCollector {
  readonly results: ConsulQueryResult[];
  readonly onResult: (result: ConsulQueryResult) => void;
  /** Resolves with the first result (already seen or future) after `from` that satisfies `match`. */
  next(match?: (result: ConsulQueryResult) => boolean, from?: number): Promise<ConsulQueryResult>;
}

export function collectWatch(): WatchCollector {
  const results: ConsulQueryResult[] = [];
  const waiters = new Set<() => void>();
  return {
    results,
    onResult(result) {
      results.push(result);
      for (const wake of [...waiters]) wake();
    },
    next(match = () => true, from = 0) {
      return new Promise((resolve) => {
        const check = (): boolean => {
          const found = results.slice(from).find(match);
          if (found) resolve(found);
          return found !== undefined;
        };
        if (check()) return;
        const wake = (): void => {
          if (check()) waiters.delete(wake);
        };
        waiters.add(wake);
      });
    },
  };
}

export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
