/**
 * @module Shares one query result among all identical parked queries woken by the same change:
 * 10 000 watchers of one service build its health entries (and their JSON) once, not 10 000 times.
 * Entries live only while the state's index is unchanged, so a result is never stale.
 */
import type { QueryRun } from "./blocking-query.ts";

const MAX_ENTRIES = 4096;

export class QueryMemo {
  #generation = -1;
  readonly #entries = new Map<string, QueryRun<unknown>>();

  run<T>(key: string, generation: number, compute: () => QueryRun<T>): QueryRun<T> {
    if (generation !== this.#generation) {
      this.#entries.clear();
      this.#generation = generation;
    }
    const hit = this.#entries.get(key);
    if (hit) return hit as QueryRun<T>;
    const result = compute();
    if (this.#entries.size < MAX_ENTRIES) this.#entries.set(key, result);
    return result;
  }
}

/** What makes two reads identical: method, path and every parameter except index/wait/hash, plus the token. */
export function memoKey(request: Request, url: URL, token: string): string {
  const params = [...url.searchParams].filter(([name]) => name !== "index" && name !== "wait");
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${request.method} ${url.pathname}?${new URLSearchParams(params)}#${token}`;
}
