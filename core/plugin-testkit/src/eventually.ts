/** @module Bounded polling for tests: wait for an event's effect without asserting on timing. */

/**
 * Polls `check` until it returns a truthy value and resolves with it; after `timeoutMs` it throws
 * "Timed out waiting for <what>" (bounded, so a broken component fails instead of hanging).
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
  everyMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
