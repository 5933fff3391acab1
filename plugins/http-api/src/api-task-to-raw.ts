/**
 * @module The API's task object → the config loader's canonical task shape, so that tasks created
 * over HTTP go through exactly the same defaults and validation as tasks in config files.
 *
 * The API spells condition and input types with underscores (`catalog_services`); config blocks
 * use the labels (`condition "catalog-services"`).
 */

type Json = Record<string, unknown>;

const LABELS: Readonly<Record<string, string>> = {
  services: "services",
  catalog_services: "catalog-services",
  consul_kv: "consul-kv",
  schedule: "schedule",
};

function dropNullValues(map: unknown): unknown {
  if (typeof map !== "object" || map === null) return map;
  return Object.fromEntries(Object.entries(map as Json).filter(([, value]) => value !== null));
}

function relabel(blocks: unknown, isCondition: boolean, labels: Readonly<Record<string, string>>): Json {
  const out: Json = {};
  for (const [key, body] of Object.entries((blocks ?? {}) as Json)) {
    const fields: Json = { ...(body as Json) };
    if ("cts_user_defined_meta" in fields) fields.cts_user_defined_meta = dropNullValues(fields.cts_user_defined_meta);
    // CTS quirk kept for compatibility: a non-empty `names` wins and `regexp` is dropped.
    if (isCondition && key === "services" && Array.isArray(fields.names) && fields.names.length > 0) {
      delete fields.regexp;
    }
    out[LABELS[key] ?? labels[key] ?? key] = fields;
  }
  return out;
}

/**
 * Maps a schema-checked API task to the canonical (label-keyed) raw task of core/config; `labels`
 * maps the API spelling of third-party types (`kv_flag`) to their registered labels (`kv-flag`).
 */
export function apiTaskToRaw(apiTask: Readonly<Json>, labels: Readonly<Record<string, string>> = {}): Json {
  const raw: Json = {};
  for (const [key, value] of Object.entries(apiTask)) {
    if (key === "condition") raw.condition = relabel(value, true, labels);
    else if (key === "module_input") raw.module_input = relabel(value, false, labels);
    else raw[key] = value;
  }
  return raw;
}
