/** @module A minimal raw-task → TaskConfig mapper for API tests until core/config's normaliser lands. */
import type { TaskConfig } from "../../../../core/plugin-api/mod.ts";
import { CtsError } from "../../../../core/plugin-api/mod.ts";
import { parseDuration } from "../../../../core/config/duration.ts";

type Json = Record<string, unknown>;

export function minimalNormalizeTask(raw: Json): TaskConfig {
  const [type, body] = Object.entries((raw.condition ?? {}) as Json)[0] ?? [];
  if (!type) throw new CtsError("CTS_ERR_CONFIG_INVALID", "Cannot create task: a condition is required");
  const b = { ...(body as Json) };
  const condition: Json = { type, ...b };
  if (type === "services" || type === "catalog-services" || type === "consul-kv") {
    condition.use_as_module_input = b.use_as_module_input ?? true;
    condition.datacenter = b.datacenter ?? "";
    condition.namespace = b.namespace ?? "";
  }
  if (type === "services") {
    condition.filter = b.filter ?? "";
    condition.cts_user_defined_meta = b.cts_user_defined_meta ?? {};
  }
  if (type === "consul-kv") condition.recurse = b.recurse ?? false;
  if (type === "catalog-services") condition.node_meta = b.node_meta ?? {};
  const bp = raw.buffer_period as Json | undefined;
  let buffer = { enabled: true, min: 5000, max: 20000 };
  if (bp) {
    const min = bp.min === undefined ? 5000 : parseDuration(String(bp.min));
    const max = bp.max === undefined ? (min ?? 0) * 4 : parseDuration(String(bp.max));
    if (min === undefined || max === undefined) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", "Cannot create task: buffer_period durations are invalid");
    }
    buffer = bp.enabled === false ? { enabled: false, min: 0, max: 0 } : { enabled: true, min, max };
  }
  return {
    name: String(raw.name),
    description: (raw.description as string) ?? "",
    enabled: (raw.enabled as boolean) ?? true,
    providers: (raw.providers as string[]) ?? [],
    module: String(raw.module),
    version: (raw.version as string) ?? "",
    variables: (raw.variables as Record<string, string>) ?? {},
    variable_files: [],
    working_dir: `sync-tasks/${String(raw.name)}`,
    buffer_period: buffer,
    buffer_period_configured: bp !== undefined,
    condition: condition as unknown as TaskConfig["condition"],
    module_input: Object.entries((raw.module_input ?? {}) as Json).map(([t, v]) => ({
      type: t, filter: "", datacenter: "", namespace: "", cts_user_defined_meta: {}, recurse: false, ...(v as Json),
    })) as unknown as TaskConfig["module_input"],
    driver: "terraform",
  };
}
