/**
 * @module A stored task whose record cannot be decoded (the store reports it, damaged-records in
 * the contract): listed as errored, its one event saying which key and how to repair it, and never
 * run, while every other task runs. Deleting it through the API removes its keys; nothing else may
 * change it.
 */
import { CtsError, type CtsConfig, type DamagedRecord, type TaskConfig, type TaskEvent, type TaskState } from "../../../core/plugin-api/mod.ts";

export class DamagedTask {
  readonly record: DamagedRecord;
  readonly config: TaskConfig;
  readonly #event: TaskEvent;

  /** `configured`: the config file's task of that name, shown in its place when there is one. */
  constructor(record: DamagedRecord, name: string, global: CtsConfig, instanceId: string) {
    this.record = record;
    const configured = global.tasks.find((task) => task.name === name);
    this.config = configured ?? placeholderConfig(name, global);
    this.#event = {
      id: crypto.randomUUID(),
      success: false,
      start_time: record.since,
      end_time: record.since,
      task_name: name,
      error: { message: this.message },
      config: { providers: [...this.config.providers], services: [], source: this.config.module },
      trigger: { kind: "leader", detail: "stored record damaged" },
      instance_id: instanceId,
    };
  }

  get name(): string {
    return this.config.name;
  }

  /** What the task's status and every refused change say. */
  get message(): string {
    return `Cannot load task "${this.config.name}" from ${this.record.key}: ${this.record.error}; ${this.record.action}`;
  }

  state(): TaskState {
    return { config: this.config, status: "errored", events: [this.#event], running: false, deleting: false };
  }

  /** The error a change other than a delete gets. */
  refuse(action: string): CtsError {
    return new CtsError("CTS_ERR_BAD_REQUEST", `Cannot ${action}: ${this.message}`);
  }
}

/** An API task stored only in the damaged record: nothing of it is known but its name. */
function placeholderConfig(name: string, global: CtsConfig): TaskConfig {
  return {
    name, description: "unknown: its stored record cannot be decoded", enabled: false, providers: [], module: "", version: "",
    variables: {}, variable_files: [], working_dir: "", buffer_period: global.buffer_period, buffer_period_configured: false,
    condition: { type: "unknown" }, module_input: [], driver: global.driver.name,
  };
}
