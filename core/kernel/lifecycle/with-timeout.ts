/** @module Bounds a plugin's init or hook, so one stuck plugin cannot hang start-up or shutdown. */
import { CtsError, type CtsErrorCode } from "../../plugin-api/mod.ts";

/**
 * Runs `task` and rejects with `CtsError(code, "Cannot <action>: timed out after N ms")` if it
 * takes longer. The task itself keeps running (a promise cannot be cancelled); the kernel
 * simply stops waiting for it.
 */
export async function withTimeout<T>(
  task: () => T | Promise<T>,
  timeoutMs: number,
  code: CtsErrorCode,
  action: string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CtsError(code, `Cannot ${action}: timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([Promise.resolve().then(task), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
