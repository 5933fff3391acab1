/**
 * @module How close the process is to its open-file limit (`ulimit -n`), so the daemon sheds the load
 * it can refuse (new API requests get 503, new processes wait) before a run fails for want of a
 * descriptor, and says so once per episode rather than once per request.
 *
 * Linux tells both numbers cheaply: the soft limit in /proc/self/limits, the open descriptors as the
 * entries of /proc/self/fd. Elsewhere (no /proc) nothing is known and nothing is ever shed.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Descriptors a supervised process start takes at once: five pipes, both ends, while it forks. */
export const PROCESS_START_DESCRIPTORS = 12;

/**
 * How long a count is reused: 100 ms, or 50 times what counting took when that is longer (listing
 * 10,000 descriptors takes about 20 ms, which requests must not pay each; bench/fault-guards.ts).
 * Besides, until short a count is reused for at most half as many calls as descriptors are left
 * above the reserve: each call (an API request) may come with a new connection, so a burst of them
 * cannot run past the reserve on a stale count, and a count is taken more often the nearer the limit.
 */
const COUNT_REUSE_MS = 100;
const COST_REUSE_FACTOR = 50;

export interface DescriptorUsage {
  readonly open: number;
  readonly limit: number;
}

/** The process's soft open-file limit, or undefined where /proc does not say (or it is unlimited). */
export function openFileLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync("/proc/self/limits", "utf8");
    } catch {
      return undefined;
    }
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  const limit = soft === undefined ? NaN : Number(soft);
  return Number.isSafeInteger(limit) && limit > 0 ? limit : undefined;
}

/** `full` when the directory cannot even be opened for want of a descriptor: that is the answer. */
function countOpenDescriptors(full: number): number | undefined {
  try {
    // The directory's own descriptor is among the entries while it is read.
    return readdirSync("/proc/self/fd").length - 1;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === "EMFILE" || code === "ENFILE" ? full : undefined;
  }
}

/** Kept free for runs, Consul and the API's own answers: a tenth of the limit, at least 24. */
export function reserveFor(limit: number): number {
  return Math.max(24, Math.ceil(limit / 10));
}

export type EpisodeListener = (short: boolean, usage: DescriptorUsage) => void;

export class DescriptorGuard {
  readonly #limit: number | undefined;
  readonly #count: (full: number) => number | undefined;
  readonly #listeners = new Set<EpisodeListener>();
  readonly #now: () => number;
  #cached: { at: number; open: number; costMs: number; calls: number } | undefined;
  #short = false;

  constructor(limit = openFileLimit(), count: (full: number) => number | undefined = countOpenDescriptors, now: () => number = () => performance.now()) {
    this.#limit = limit;
    this.#count = count;
    this.#now = now;
  }

  /** Open descriptors and the limit now (undefined where unknown). */
  usage(): DescriptorUsage | undefined {
    const limit = this.#limit;
    if (limit === undefined) return undefined;
    const now = this.#now();
    let cached = this.#cached;
    if (cached) cached.calls++;
    // While short, requests are refused and closed at once: they add nothing, time alone matters.
    const callBound = this.#short || !cached ? Infinity : Math.max(1, Math.floor((limit - cached.open - reserveFor(limit)) / 2));
    const stale = !cached || cached.calls > callBound || now - cached.at >= Math.max(COUNT_REUSE_MS, cached.costMs * COST_REUSE_FACTOR);
    if (stale) {
      const open = this.#count(limit);
      if (open === undefined) return undefined;
      cached = this.#cached = { at: now, open, costMs: this.#now() - now, calls: 0 };
    }
    return { open: cached!.open, limit };
  }

  /**
   * True from the moment fewer than the reserve are free until half as many again are free (so one
   * connection coming and going does not make an episode each time): refusable work is refused.
   * Tells listeners on each change.
   */
  short(): boolean {
    const usage = this.usage();
    const reserve = usage === undefined ? 0 : reserveFor(usage.limit);
    const needed = this.#short ? reserve + Math.ceil(reserve / 2) : reserve;
    const short = usage !== undefined && usage.limit - usage.open < needed;
    if (short !== this.#short) {
      this.#short = short;
      for (const listener of this.#listeners) listener(short, usage!);
    }
    return short;
  }

  /** True when `needed` more descriptors fit now. */
  roomFor(needed: number): boolean {
    this.short();
    const usage = this.usage();
    return usage === undefined || usage.limit - usage.open >= needed;
  }

  /** Waits (polling) until `needed` descriptors fit, at most `maxWaitMs`; false when it gave up. */
  async waitForRoom(needed: number, maxWaitMs: number, signal?: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + maxWaitMs;
    while (!this.roomFor(needed)) {
      if (Date.now() >= deadline || signal?.aborted) return false;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return true;
  }

  /** Called with `true` when an episode of shortage begins and `false` when it ends. */
  onEpisode(listener: EpisodeListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }
}

/** The process's one guard: descriptors are a process-wide resource. */
export const descriptorGuard = new DescriptorGuard();
