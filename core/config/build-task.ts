/**
 * @module Turns one shaped, schema-valid `task` block into a `TaskConfig`: defaults, deprecated
 * aliases (source, source_input, source_includes_var, services), buffer period resolution.
 */
import type {
  BufferPeriodConfig, ModuleInputConfig, TaskConfig,
} from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";
import {
  DISABLED_BUFFER_PERIOD, isBufferPeriodConfigured, type RawBufferPeriod, resolveBufferPeriod,
} from "./buffer-period.ts";
import { childPath } from "./field-path.ts";

type Json = Record<string, unknown>;

/** What a task inherits from the global configuration. */
export interface TaskDefaults {
  /** The global `working_dir`; a task's default is `<working_dir>/<name>`. */
  readonly working_dir: string;
  /** The resolved global buffer period. */
  readonly buffer_period: BufferPeriodConfig;
  /** The configured driver's name. */
  readonly driver: string;
  /** Deprecated `service` blocks: id → service name, for the deprecated task `services` field. */
  readonly service_ids?: Readonly<Record<string, string>>;
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
  const moduleInputs = [...labelled(raw.module_input), ...labelled(raw.source_input)].map(([type, body]) =>
    moduleInput(type, body)
  );
  if (raw.source_input !== undefined) warn("source_input", "deprecated; use module_input");

  const [conditionType, conditionBody] = labelled(raw.condition)[0] ?? [];
  const services = (raw.services as string[] | undefined)?.map((id) => ctx.defaults.service_ids?.[id] ?? id);
  if (services !== undefined) warn("services", "deprecated; use condition \"services\" or module_input \"services\"");

  let condition: TaskConfig["condition"];
  if (conditionType !== undefined) condition = buildCondition(conditionType, conditionBody!, warn);
  else if (services !== undefined) condition = buildCondition("services", { names: services }, warn);
  else condition = { type: "" };
  if (conditionType !== undefined && conditionType !== "services" && services !== undefined) {
    moduleInputs.push(moduleInput("services", { names: services }));
  }

  const rawBuffer = raw.buffer_period as RawBufferPeriod | undefined;
  const configured = isBufferPeriodConfigured(rawBuffer);
  let buffer = resolveBufferPeriod(rawBuffer, ctx.defaults.buffer_period);
  if (condition.type === "schedule") {
    if (configured && buffer.enabled) warn("buffer_period", "ignored: scheduled tasks never buffer");
    buffer = DISABLED_BUFFER_PERIOD;
  }

  return {
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
    buffer_period_configured: configured || condition.type === "schedule",
    condition,
    module_input: moduleInputs,
    driver: ctx.defaults.driver,
  };
}

/** `{label: body}` or `[{label: body}]` → `[label, body][]`. */
function labelled(value: unknown): [string, Json][] {
  const groups = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return groups.flatMap((group) => Object.entries(group as Json) as [string, Json][]);
}

function buildCondition(
  type: string,
  body: Json,
  warn: (field: string, message: string) => void,
): TaskConfig["condition"] {
  const asInput = (body.use_as_module_input ?? body.source_includes_var ?? true) as boolean;
  if (body.source_includes_var !== undefined) warn("condition", "source_includes_var is deprecated; use use_as_module_input");
  switch (type) {
    case "services":
      return { type: "services", ...servicesSelector(body), use_as_module_input: asInput };
    case "catalog-services":
      return {
        type: "catalog-services",
        regexp: String(body.regexp ?? ""),
        datacenter: str(body.datacenter),
        namespace: str(body.namespace),
        node_meta: { ...(body.node_meta as Record<string, string> | undefined) },
        use_as_module_input: asInput,
      };
    case "consul-kv":
      return { type: "consul-kv", ...kvSelector(body), use_as_module_input: asInput };
    case "schedule":
      return { type: "schedule", cron: String(body.cron ?? "") };
    default:
      return { ...body, type };
  }
}

function moduleInput(type: string, body: Json): ModuleInputConfig {
  if (type === "services") return { type, ...servicesSelector(body) };
  if (type === "consul-kv") return { type, ...kvSelector(body) };
  // A third-party module input: kept as written for its plugin's schema.
  return { ...body, type } as unknown as ModuleInputConfig;
}

function servicesSelector(body: Json) {
  return {
    ...(body.names !== undefined ? { names: [...(body.names as string[])] } : {}),
    ...(body.regexp !== undefined ? { regexp: String(body.regexp) } : {}),
    filter: str(body.filter),
    datacenter: str(body.datacenter),
    namespace: str(body.namespace),
    cts_user_defined_meta: { ...(body.cts_user_defined_meta as Record<string, string> | undefined) },
  };
}

function kvSelector(body: Json) {
  return {
    path: str(body.path),
    recurse: (body.recurse as boolean | undefined) ?? false,
    datacenter: str(body.datacenter),
    namespace: str(body.namespace),
  };
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}
