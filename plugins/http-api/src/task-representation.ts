/**
 * @module A stored task as CTS's API shows it: defaults filled in, condition and module inputs
 * keyed by their underscored type names, durations as Go duration strings.
 */
import type { ConditionConfig, ModuleInputConfig, OtherConditionConfig, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { formatGoDuration } from "../../../core/plugin-api/mod.ts";

export type ApiObject = Record<string, unknown>;

/** `catalog-services` → `catalog_services`: the API's spelling of a condition or input type. */
export function apiTypeName(type: string): string {
  return type.replace(/-/g, "_");
}

function servicesSelector(input: Readonly<Record<string, unknown>>): ApiObject {
  return {
    regexp: input.regexp ?? "",
    names: [...list(input.names)],
    filter: input.filter,
    datacenter: input.datacenter,
    namespace: input.namespace,
    cts_user_defined_meta: { ...record(input.cts_user_defined_meta) },
  };
}

// Blocks are open records (ConditionConfig); the owner's schema made these fields a list and a map.
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const record = (value: unknown): object => (typeof value === "object" && value !== null ? value : {});

function conditionBody(condition: ConditionConfig | OtherConditionConfig): ApiObject {
  const c = condition as ConditionConfig;
  switch (c.type) {
    case "services":
      return { ...servicesSelector(c), use_as_module_input: c.use_as_module_input };
    case "catalog-services":
      return {
        regexp: c.regexp,
        datacenter: c.datacenter,
        namespace: c.namespace,
        node_meta: { ...record(c.node_meta) },
        use_as_module_input: c.use_as_module_input,
      };
    case "consul-kv":
      return {
        path: c.path,
        recurse: c.recurse,
        datacenter: c.datacenter,
        namespace: c.namespace,
        use_as_module_input: c.use_as_module_input,
      };
    case "schedule":
      return { cron: c.cron };
    default: {
      // A third-party condition: show its fields as configured.
      const { type: _type, ...fields } = condition as OtherConditionConfig;
      return { ...fields };
    }
  }
}

function moduleInputBody(input: ModuleInputConfig): ApiObject {
  if (input.type === "services") return servicesSelector(input);
  return { path: input.path, recurse: input.recurse, datacenter: input.datacenter, namespace: input.namespace };
}

/** CTS's response representation of a task (keys in CTS's order). */
export function toApiTask(task: TaskConfig): ApiObject {
  const out: ApiObject = {};
  const schedule = task.condition.type === "schedule";
  if (schedule) {
    out.buffer_period = { enabled: false, min: "0s", max: "0s" };
  } else if (task.buffer_period_configured) {
    out.buffer_period = {
      enabled: task.buffer_period.enabled,
      min: formatGoDuration(task.buffer_period.min),
      max: formatGoDuration(task.buffer_period.max),
    };
  }
  out.condition = { [apiTypeName(task.condition.type)]: conditionBody(task.condition) };
  out.description = task.description;
  out.enabled = task.enabled;
  out.module = task.module;
  const moduleInput: ApiObject = {};
  for (const input of task.module_input) moduleInput[apiTypeName(input.type)] = moduleInputBody(input);
  out.module_input = moduleInput;
  out.name = task.name;
  out.providers = [...task.providers];
  // CTS shows the block only when a field is set (api/representation.go).
  if (task.terraform_cloud_workspace) out.terraform_cloud_workspace = { ...task.terraform_cloud_workspace };
  out.variables = { ...task.variables };
  out.version = task.version;
  return out;
}
