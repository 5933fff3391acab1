/**
 * @module A small real in-memory TaskManager for API tests until the engine's lands: it keeps
 * tasks and events, computes CTS's status, and "plans"/"applies" through a pluggable outcome.
 */
import type {
  InspectPlan, RunRequest, TaskConfig, TaskEvent, TaskManager, TaskState, TaskStatus, TriggerReason,
} from "../../../../core/plugin-api/mod.ts";
import { CtsError } from "../../../../core/plugin-api/mod.ts";

export interface MemoryTaskManagerOptions {
  /** Throw to make an apply fail. */
  apply?: (task: TaskConfig) => void | Promise<void>;
  plan?: (task: TaskConfig) => InspectPlan;
}

function statusOf(events: readonly TaskEvent[]): TaskStatus {
  if (events.length === 0) return "unknown";
  if (events[0]!.success) return "successful";
  return events.filter((e) => !e.success).length >= 2 ? "critical" : "errored";
}

export class MemoryTaskManager implements TaskManager {
  readonly tasks = new Map<string, { config: TaskConfig; events: TaskEvent[]; running: boolean; deleting: boolean }>();
  private readonly options: MemoryTaskManagerOptions;
  constructor(options: MemoryTaskManagerOptions = {}) {
    this.options = options;
  }

  private state(name: string): TaskState | undefined {
    const t = this.tasks.get(name);
    if (!t) return undefined;
    return { config: t.config, events: [...t.events], status: statusOf(t.events), running: t.running, deleting: t.deleting };
  }

  list(): TaskState[] {
    return [...this.tasks.keys()].map((name) => this.state(name)!);
  }

  get(name: string): TaskState | undefined {
    return this.state(name);
  }

  private plan(task: TaskConfig): InspectPlan {
    return this.options.plan?.(task) ?? { changesPresent: true, plan: `Plan: 1 to add for ${task.name}` };
  }

  private async apply(task: TaskConfig, reason: TriggerReason): Promise<TaskEvent> {
    const start = new Date().toISOString();
    let error: { message: string } | null = null;
    try {
      await this.options.apply?.(task);
    } catch (e) {
      error = { message: (e as Error).message };
    }
    return {
      id: crypto.randomUUID(), success: error === null, start_time: start, end_time: new Date().toISOString(),
      task_name: task.name, error, trigger: reason,
      config: { providers: [...task.providers], services: [], source: task.module },
    };
  }

  addEvent(name: string, event: TaskEvent): void {
    const t = this.tasks.get(name)!;
    t.events.unshift(event);
    t.events.splice(5);
  }

  async create(task: TaskConfig, run?: RunRequest): Promise<{ task: TaskConfig; plan?: InspectPlan; event?: TaskEvent }> {
    if (this.tasks.has(task.name)) throw new CtsError("CTS_ERR_CONFLICT", `Cannot create task ${task.name}: it exists`);
    if (run === "inspect") return { task, plan: this.plan(task) };
    if (run === "now") {
      const event = await this.apply(task, { kind: "api" });
      if (!event.success) throw new CtsError("CTS_ERR_TASK", `Cannot run task ${task.name}: ${event.error!.message}`);
      this.tasks.set(task.name, { config: task, events: [event], running: false, deleting: false });
      return { task, event };
    }
    this.tasks.set(task.name, { config: task, events: [], running: false, deleting: false });
    return { task };
  }

  async setEnabled(name: string, enabled: boolean, run?: RunRequest): Promise<{ plan?: InspectPlan }> {
    const t = this.tasks.get(name);
    if (!t) throw new CtsError("CTS_ERR_NOT_FOUND", `Cannot update task ${name}: it does not exist`);
    const config = { ...t.config, enabled };
    if (run === "inspect") return { plan: this.plan(config) };
    t.config = config;
    if (run === "now") this.addEvent(name, await this.apply(config, { kind: "api" }));
    return {};
  }

  async delete(name: string): Promise<void> {
    if (!this.tasks.delete(name)) throw new CtsError("CTS_ERR_NOT_FOUND", `Cannot delete task ${name}: it does not exist`);
  }

  async runNow(name: string, reason: TriggerReason): Promise<TaskEvent | undefined> {
    const t = this.tasks.get(name);
    if (!t || !t.config.enabled) return undefined;
    const event = await this.apply(t.config, reason);
    this.addEvent(name, event);
    return event;
  }

  async idle(): Promise<void> {}
}
