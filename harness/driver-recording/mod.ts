/**
 * @module A real driver plugin for tests: registers driver "recording", which records every
 * init/render/plan/apply (task, input, start/end time, instance id) into `recordingLog` and,
 * with option `log_file`, as JSON lines appended to that file (for tests across processes).
 *
 * Options: `log_file`, `apply_delay_ms`, `fail_tasks` (task names whose apply/plan fails),
 * `fail_instances` (service instance ids whose presence in the rendered `services` fails an apply),
 * `plan_changes` (what plan reports), `instance_id` (default: config `id`), `keep_inputs`
 * (default true; false leaves `input` out of entries, for benchmarks that measure memory).
 */
import { appendFileSync } from "node:fs";
import {
  configToken, CtsError, definePlugin, driverRegistryToken,
  type Driver, type DriverFactory, type PluginContext, type TaskConfig, type TaskInputs,
} from "../../core/plugin-api/mod.ts";

export interface RecordingOptions {
  readonly log_file?: string;
  readonly apply_delay_ms?: number;
  readonly fail_tasks?: readonly string[];
  readonly fail_instances?: readonly string[];
  readonly plan_changes?: boolean;
  readonly instance_id?: string;
  readonly keep_inputs?: boolean;
}

export interface RecordEntry {
  readonly op: "init" | "render" | "plan" | "apply" | "destroy";
  readonly task: string;
  /** The rendered inputs (render), or the inputs last rendered (plan/apply). */
  readonly input?: TaskInputs;
  readonly start: number;
  readonly end: number;
  readonly instance: string;
  readonly ok: boolean;
}

/** Every call of every recording driver in this process, oldest first. */
export const recordingLog: RecordEntry[] = [];

export function clearRecordingLog(): void {
  recordingLog.length = 0;
}

/** Entries of one operation (and optionally one task). */
export function recorded(op: RecordEntry["op"], task?: string): RecordEntry[] {
  return recordingLog.filter((entry) => entry.op === op && (task === undefined || entry.task === task));
}

const optionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    log_file: { type: "string" },
    apply_delay_ms: { type: "number", minimum: 0 },
    fail_tasks: { type: "array", items: { type: "string" } },
    fail_instances: { type: "array", items: { type: "string" } },
    plan_changes: { type: "boolean" },
    instance_id: { type: "string" },
    keep_inputs: { type: "boolean" },
  },
} as const;

/** A plugin with options baked in (tests that build a kernel in-process). */
export function recordingDriverPlugin(baked: RecordingOptions = {}) {
  return definePlugin({
    id: "driver-recording",
    kind: "driver",
    description: "Test driver that records every call",
    optionsSchema,
    deps: { drivers: driverRegistryToken, config: configToken },
    init({ drivers, config }, ctx: PluginContext<RecordingOptions>) {
      const options = { ...ctx.options, ...baked };
      drivers.register(recordingFactory(options, options.instance_id ?? (config.id || "cts")));
    },
  });
}

function recordingFactory(options: RecordingOptions, instance: string): DriverFactory {
  const write = (entry: RecordEntry) => {
    recordingLog.push(entry);
    if (options.log_file) appendFileSync(options.log_file, `${JSON.stringify(entry)}\n`);
  };
  const fails = (task: TaskConfig) => (options.fail_tasks ?? []).includes(task.name);
  return {
    name: "recording",
    async create(task: TaskConfig): Promise<Driver> {
      let rendered: TaskInputs | undefined;
      const record = async (op: RecordEntry["op"], input: TaskInputs | undefined, work: () => Promise<void>) => {
        const start = Date.now();
        let ok = true;
        try {
          await work();
        } catch (error) {
          ok = false;
          throw error;
        } finally {
          const kept = input && options.keep_inputs !== false ? { input } : {};
          write({ op, task: task.name, ...kept, start, end: Date.now(), instance, ok });
        }
      };
      return {
        init: () => record("init", undefined, async () => {}),
        render: (inputs) => record("render", inputs, async () => {
          // Benchmarks (keep_inputs false) keep a reference: a copy per task would count as engine memory.
          rendered = options.keep_inputs === false ? inputs : structuredClone(inputs);
        }),
        async plan() {
          await record("plan", rendered, async () => {
            if (fails(task)) throw new CtsError("CTS_ERR_DRIVER", `Cannot plan task "${task.name}": configured to fail`);
          });
          const changes = options.plan_changes ?? true;
          return { changesPresent: changes, plan: `recording plan for ${task.name}: ${Object.keys(rendered?.services ?? {}).length} service instance(s)` };
        },
        apply: () => record("apply", rendered, async () => {
          if (options.apply_delay_ms) await new Promise((resolve) => setTimeout(resolve, options.apply_delay_ms));
          if (fails(task)) throw new CtsError("CTS_ERR_DRIVER", `Cannot apply task "${task.name}": configured to fail`);
          const failing = Object.values(rendered?.services ?? {}).find((instance) => options.fail_instances?.includes(instance.id));
          if (failing) throw new CtsError("CTS_ERR_DRIVER", `Cannot apply task "${task.name}": instance "${failing.id}" is configured to fail`);
        }),
        destroy: () => record("destroy", rendered, async () => {}),
        version: async () => "recording 1.0.0",
      };
    },
  };
}

export default recordingDriverPlugin();
