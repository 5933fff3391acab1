/**
 * @module A start-up run that found the task's state lock held (a crashed run's, until Consul drops
 * it; a hand-run apply): retried in the background with backoff until it works, each try an event.
 */
import type { Logger } from "../../../core/plugin-api/mod.ts";
import { errorMessage, formatGoDuration, isCtsError, sleep } from "../../../core/plugin-api/mod.ts";
import { lockedRetryDelayMs } from "./retry.ts";
import type { TaskRuntime } from "./task-runtime.ts";

/** The task could not get its state lock within the driver's wait (CTS_ERR_STATE_LOCKED). */
export function stateLocked(error: unknown, runtime: TaskRuntime): boolean {
  return (isCtsError(error) && error.code === "CTS_ERR_STATE_LOCKED") || runtime.lastErrorCode === "CTS_ERR_STATE_LOCKED";
}

/** Start-up run retries of `runtime` until one works, fails otherwise, or `current()` turns false (a step-down). */
export async function retryWhileLocked(runtime: TaskRuntime, current: () => boolean, logger: Logger, signal: AbortSignal): Promise<void> {
  for (let retry = 1; ; retry++) {
    const delay = lockedRetryDelayMs(retry);
    logger.warn("state lock still held, the start-up run will be retried", {
      task_name: runtime.name, retry, in: formatGoDuration(delay),
    });
    await sleep(delay, signal);
    if (!current() || signal.aborted) return;
    const reason = { kind: "retry", detail: `start-up run, retry ${retry}: state locked` } as const;
    try {
      try {
        await runtime.prepare();
      } catch (error) {
        await runtime.recordFailure(reason, error);
        throw error;
      }
      if (!current()) return;
      await runtime.startSources();
      runtime.arm();
      const event = await runtime.request({ reason, force: false, retries: false, followUp: false });
      if (!event || event.success) {
        logger.info("start-up run completed after the state lock was released", { task_name: runtime.name, retry });
        return;
      }
      if (runtime.lastErrorCode !== "CTS_ERR_STATE_LOCKED") return;
    } catch (error) {
      if (!stateLocked(error, runtime)) {
        logger.error("start-up run retry failed", { task_name: runtime.name, retry, error: errorMessage(error) });
        return;
      }
    }
  }
}
