/**
 * @module Turns one shaped, schema-valid `task` block into a `TaskConfig`: defaults, deprecated
 * aliases (source, source_input; services as the bare label it stands for), buffer period resolution. Fields core does not read stay
 * as written: the task-level blocks drivers add are theirs (core/config/task-fields.ts). Condition and module_input
 * bodies are kept as written (`{ ...body, type: label }`): their fields, defaults and deprecated
 * names are their owners' (the kernel completes them, core/kernel/complete-task.ts).
 */
import type {
  BufferPeriodConfig, ConditionConfig, ModuleInputConfig, TaskConfig,
} from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";
import { isBufferPeriodConfigured, type RawBufferPeriod, resolveBufferPeriod } from "./buffer-period.ts";
import { driftDetectionOf } from "./drift-detection.ts";
import { childPath } from "./field-path.ts";
import { driverTaskFields } from "./task-fields.ts";

type Json = Record<string, unknown>;

/** The block label CTS's deprecated task field `services` stands for. */
export const SERVICES_LABEL = "services";

/** What a task inherits from the global configuration. */
export interface TaskDefaults {
  /** The global `working_dir`; a task's default is `<working_dir>/<name>`. */
  readonly working_dir: string;
  /** The resolved global buffer period. */
  readonly buffer_period: BufferPeriodConfig;
  /** The configured driver's name. */
  readonly driver: string;
}

export interface BuildTaskContext {
  readonly file: string;
  /** CTS-style path of this task, e.g. `task[2]`. */
  readonly path: string;
  readonly defaults: TaskDefaults;
  readonly warnings: ConfigIssue[];
}

export function buildTask(raw: Json, ctx: BuildTaskContext): TaskConfig {
  const name = String(raw.name ?? "");
  const warn = (field: string, message: string): void => {
    ctx.warnings.push({ file: ctx.file, path: childPath(ctx.path, field), message });
  };
  if (raw.source !== undefined) {
    warn("source", raw.module !== undefined ? "deprecated; module is set and wins" : "deprecated; use module");
  }
  const moduleInputs: ModuleInputConfig[] = [...labelled(raw.module_input), ...labelled(raw.source_input)]
    .map(([type, body]) => block(type, body));
  if (raw.source_input !== undefined) warn("source_input", "deprecated; use module_input");

  const [conditionType, conditionBody] = labelled(raw.condition)[0] ?? [];
  // CTS's deprecated `services` list stands for a block labelled "services": the condition, or a
  // module input next to another condition. Its body is the label's owner's to build from the list
  // (core/kernel/services-field.ts); core writes only the label.
  const services = raw.services !== undefined;
  if (services) warn("services", "deprecated; use condition \"services\" or module_input \"services\"");

  let condition: ConditionConfig;
  if (conditionType !== undefined) condition = block(conditionType, conditionBody!);
  else if (services) condition = { type: SERVICES_LABEL };
  else condition = { type: "" };
  if (conditionType !== undefined && conditionType !== SERVICES_LABEL && services) {
    moduleInputs.push({ type: SERVICES_LABEL });
  }

  const rawBuffer = raw.buffer_period as RawBufferPeriod | undefined;
  const configured = isBufferPeriodConfigured(rawBuffer);
  // A condition that never buffers (CTS: schedule) says so itself; the kernel applies it (complete-task.ts).
  const buffer = resolveBufferPeriod(rawBuffer, ctx.defaults.buffer_period);

  return {
    // Fields core does not read (a driver's task-level blocks) stay as written for the kernel.
    ...Object.fromEntries(driverTaskFields(raw).map((key) => [key, raw[key]])),
    name,
    description: (raw.description as string | undefined) ?? "",
    enabled: (raw.enabled as boolean | undefined) ?? true,
    providers: [...((raw.providers as string[] | undefined) ?? [])],
    module: (raw.module as string | undefined) ?? (raw.source as string | undefined) ?? "",
    version: (raw.version as string | undefined) ?? "",
    variables: { ...((raw.variables as Record<string, string> | undefined) ?? {}) },
    variable_files: [...((raw.variable_files as string[] | undefined) ?? [])],
    working_dir: (raw.working_dir as string | undefined) || `${ctx.defaults.working_dir}/${name}`,
    buffer_period: buffer,
    buffer_period_configured: configured,
    condition,
    module_input: moduleInputs,
    driver: ctx.defaults.driver,
    ...(raw.services !== undefined ? { services: [...(raw.services as string[])] } : {}),
    ...(raw.drift_detection !== undefined ? { drift_detection: driftDetectionOf(raw.drift_detection) } : {}),
  };
}

/** `{label: body}` or `[{label: body}]` → `[label, body][]`. */
function labelled(value: unknown): [string, Json][] {
  const groups = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return groups.flatMap((group) => Object.entries(group as Json) as [string, Json][]);
}

/** A condition or module_input block: its body as written, labelled with its type. */
function block(type: string, body: Json): ConditionConfig {
  return { ...body, type };
}
