/** @module Building a task's event: one per run that CTS would record, plus why it ran and where. */
import type { TaskConfig, TaskEvent, TriggerReason } from "../../../core/plugin-api/mod.ts";

export interface EventStart {
  readonly task: TaskConfig;
  readonly trigger: TriggerReason;
  readonly instanceId: string;
  readonly startedAt: Date;
  /** `config.source`; defaults to the task's module as written. */
  readonly source?: string;
}

/**
 * The module CTS reports in events: its Terraform driver replaces a `./` or `../` module with that
 * path joined onto the daemon's working directory before the first run, so events name the absolute path.
 */
export function reportedSource(module: string, resolve: (path: string) => string): string {
  return module.startsWith("./") || module.startsWith("../") ? resolve(module) : module;
}

/** A run starting now; `ctx` gives the instance id and the daemon's working directory. */
export function eventStart(
  task: TaskConfig,
  trigger: TriggerReason,
  ctx: { readonly instance: { readonly id: string }; readonly fileSystem: { resolve(path: string): string } },
): EventStart {
  const source = reportedSource(task.module, (path) => ctx.fileSystem.resolve(path));
  return { task, trigger, instanceId: ctx.instance.id, startedAt: new Date(), source };
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
    config: { providers: [...start.task.providers], services: deprecatedServices(start.task), source: start.source ?? start.task.module },
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
