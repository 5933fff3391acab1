/**
 * @module Turns one shaped, schema-valid `task` block into a `TaskConfig`: defaults, deprecated
 * aliases (source, source_input, services), buffer period resolution. Fields core does not read stay
 * as written: the task-level blocks drivers add are theirs (core/config/task-fields.ts). Condition and module_input
 * bodies are kept as written (`{ ...body, type: label }`): their fields, defaults and deprecated
 * names are their owners' (the kernel completes them, core/kernel/complete-task.ts).
 */
import type {
  BufferPeriodConfig, ConditionConfig, ModuleInputConfig, TaskConfig,
} from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";
import { isBufferPeriodConfigured, type RawBufferPeriod, resolveBufferPeriod } from "./buffer-period.ts";
import { childPath } from "./field-path.ts";
import { driverTaskFields } from "./task-fields.ts";

type Json = Record<string, unknown>;

/** What a task inherits from the global configuration. */
export interface TaskDefaults {
  /** The global `working_dir`; a task's default is `<working_dir>/<name>`. */
  readonly working_dir: string;
  /** The resolved global buffer period. */
  readonly buffer_period: BufferPeriodConfig;
  /** The configured driver's name. */
  readonly driver: string;
  /** Deprecated `service` blocks by id (default: name), for the deprecated task `services` field. */
  readonly service_blocks?: Readonly<Record<string, DeprecatedServiceBlock>>;
}

/** A deprecated `service` block: how CTS queried one service for tasks naming it in `services`. */
export interface DeprecatedServiceBlock {
  readonly name: string;
  readonly datacenter?: string;
  readonly namespace?: string;
  readonly filter?: string;
  readonly cts_user_defined_meta?: Readonly<Record<string, string>>;
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
  const services = raw.services === undefined
    ? undefined
    : deprecatedServices(raw.services as string[], ctx.defaults.service_blocks ?? {}, warn);
  if (services !== undefined) warn("services", "deprecated; use condition \"services\" or module_input \"services\"");

  let condition: ConditionConfig;
  if (conditionType !== undefined) condition = block(conditionType, conditionBody!);
  else if (services !== undefined) condition = block("services", services);
  else condition = { type: "" };
  if (conditionType !== undefined && conditionType !== "services" && services !== undefined) {
    moduleInputs.push(block("services", services));
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

/**
 * The selector the deprecated `services` field stands for: ids of `service` blocks become their
 * names, and each block's `cts_user_defined_meta` applies to its service. CTS queried each service
 * with its own block's datacenter, namespace and filter; one selector holds one of each, so they
 * are taken when the named blocks agree, and a warning says so when they do not.
 */
function deprecatedServices(
  ids: readonly string[],
  blocks: Readonly<Record<string, DeprecatedServiceBlock>>,
  warn: (field: string, message: string) => void,
): Json {
  const entries = ids.map((id) => blocks[id] ?? { name: id });
  const metaByService: Record<string, Record<string, string>> = {};
  for (const entry of entries) {
    if (entry.cts_user_defined_meta && Object.keys(entry.cts_user_defined_meta).length > 0) {
      metaByService[entry.name] = { ...entry.cts_user_defined_meta };
    }
  }
  const shared = (field: "datacenter" | "namespace" | "filter"): string => {
    const values = [...new Set(entries.map((entry) => entry[field] ?? ""))];
    if (values.length > 1) {
      warn("services", `the service blocks it names set different ${field} values; using "${values.find((v) => v !== "")}" for all`);
    }
    return values.find((value) => value !== "") ?? "";
  };
  return {
    names: entries.map((entry) => entry.name),
    datacenter: shared("datacenter"),
    namespace: shared("namespace"),
    filter: shared("filter"),
    ...(Object.keys(metaByService).length > 0 ? { cts_user_defined_meta_by_service: metaByService } : {}),
  };
}
