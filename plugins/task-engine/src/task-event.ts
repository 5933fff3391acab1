/** @module Building a task's event: one per run that CTS would record, plus why it ran and where. */
import type { TaskConfig, TaskEvent, TriggerReason } from "../../../core/plugin-api/mod.ts";

export interface EventStart {
  readonly task: TaskConfig;
  readonly trigger: TriggerReason;
  readonly instanceId: string;
  readonly startedAt: Date;
}

/** Finishes an event; `error` undefined means success. */
export function finishEvent(
  start: EventStart,
  outcome: { readonly error?: string; readonly skipped?: boolean; readonly url?: string },
  endedAt: Date = new Date(),
): TaskEvent {
  return {
    id: crypto.randomUUID(),
    success: outcome.error === undefined,
    start_time: start.startedAt.toISOString(),
    end_time: endedAt.toISOString(),
    task_name: start.task.name,
    error: outcome.error === undefined ? null : { message: outcome.error },
    config: { providers: [...start.task.providers], services: deprecatedServices(start.task), source: start.task.module },
    trigger: start.trigger,
    instance_id: start.instanceId,
    ...(outcome.skipped ? { skipped: true } : {}),
    ...(outcome.url ? { url: outcome.url } : {}),
  };
}

/** CTS lists the deprecated `services` names here; condition-based tasks have none. */
function deprecatedServices(task: TaskConfig): string[] {
  const legacy = (task as { services?: unknown }).services;
  return Array.isArray(legacy) ? legacy.map(String) : [];
}

/** Puts `event` first and keeps the newest `limit`. */
export function pushEvent(events: readonly TaskEvent[], event: TaskEvent, limit: number): TaskEvent[] {
  return [event, ...events].slice(0, Math.max(1, limit));
}
