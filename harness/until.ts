/**
 * @module Polls until `probe` returns something other than undefined and returns that value; throws
 * after `limitMs` naming `what` (a bound for a hang, never a timing assertion).
 */
export async function until<T>(
  what: string, probe: () => T | undefined | Promise<T | undefined>, limitMs = 60_000, everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
