/** @module A timer that ends early when a signal aborts, for loops that must stop promptly. */

/** Resolves after `ms`, or as soon as `signal` aborts (check `signal.aborted` afterwards). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
