/**
 * @module Where tasks and what they did are kept and told: the task store (configurations, events,
 * run records), the kernel's live event bus, `TaskManager.onEvent` subscribers, and the masker every
 * record passes through before it is kept or published (`events_per_task` bounds the events kept).
 */
import type { DaemonEvents, SecretMasker, TaskEvent, TaskStore } from "../../../core/plugin-api/mod.ts";
import { configToken, daemonEventsToken, defineService, secretMaskerToken, taskStoreToken } from "../../../core/plugin-api/mod.ts";
import { taskRecordsToken } from "./engine-tokens.ts";

export interface TaskRecords {
  readonly store: TaskStore;
  /** The kernel's live event bus: runs, task states, task creation and deletion. */
  readonly daemonEvents: DaemonEvents;
  /** The daemon's secrets: masked in every event, run record (its output too), drift check, destroy and update answer before it is kept or published. */
  readonly secrets: SecretMasker;
  /** Kept events per task. */
  readonly eventLimit: number;
  /** TaskManager.onEvent subscribers, told of every recorded event. */
  readonly listeners: Set<(event: TaskEvent) => void>;
}

export const taskRecordsService = defineService({
  token: taskRecordsToken,
  deps: { config: configToken, store: taskStoreToken, daemonEvents: daemonEventsToken, secrets: secretMaskerToken },
  create: ({ config, store, daemonEvents, secrets }): TaskRecords => Object.freeze({
    store, daemonEvents, secrets,
    eventLimit: config.events_per_task > 0 ? config.events_per_task : 5,
    listeners: new Set<(event: TaskEvent) => void>(),
  }),
});
