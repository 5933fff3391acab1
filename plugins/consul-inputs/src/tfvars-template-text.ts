/**
 * @module The template CTS writes for each of these blocks into terraform.tfvars.tmpl (hcat /
 * Go-template syntax: people and tools reading that file find CTS's Consul queries there). A block
 * that renders its variable assigns it (`services = {...}`); one that only watches
 * (`use_as_module_input = false`) writes a query that renders nothing. The factories give this text
 * as their `template`, so a driver writes it without reading any block's fields.
 */
import type { CatalogServicesConditionBlock, ConsulKvSelector, ServicesSelector } from "./input-options.ts";

/** The fields every block's query has (its schema's defaults: "" for the agent's own). */
interface QueryScope {
  readonly datacenter: string;
  readonly namespace: string;
}

/** hcat's query arguments: the first one, then `dc=`, `ns=` and (services) the filter with its quotes escaped. */
function query(first: string | undefined, block: QueryScope, filter = ""): string[] {
  const options = first === undefined ? [] : [first];
  if (block.datacenter) options.push(`dc=${block.datacenter}`);
  if (block.namespace) options.push(`ns=${block.namespace}`);
  if (filter) options.push(filter.replaceAll(`"`, `\\"`).replace(/^\n+|\n+$/g, ""));
  return options;
}

const quoted = (options: readonly string[]): string => (options.length === 0 ? "" : `"${options.join(`" "`)}"`);

/** Wraps a rendering template's body in its variable's assignment. */
const assigned = (variable: string, body: string, renders: boolean): string => renders ? `\n${variable} = {${body}}\n` : body;

const SERVICE_ENTRY = `
  "{{ joinStrings "." .ID .Node .Namespace .NodeDatacenter }}" = {
{{ HCLService $s | indent 4 }}
  },
  {{- end}}`;
const SERVICES_WATCH_ONLY = `
  {{- /* Empty template. Detects changes in Services */ -}}
  {{- end}}`;

/** `condition "services"` / `module_input "services"`: one `service` query per name (sorted), or one `servicesRegex`. */
export function servicesTemplate(block: ServicesSelector, renders: boolean): string {
  const entry = renders ? SERVICE_ENTRY : SERVICES_WATCH_ONLY;
  if (block.regexp !== undefined) {
    const body = `
{{- with $srv := servicesRegex ${quoted(query(`regexp=${block.regexp}`, block, block.filter))} }}
  {{- range $s := $srv}}${entry}
{{- end}}
`;
    return assigned("services", body, renders);
  }
  // Sorted as CTS sorts them; duplicates stay, each its own query, as CTS writes them. Without
  // `regexp` the block has `names` (the validate hook's one-of rule).
  const names = [...block.names!].sort();
  const body = names.map((name) => `
{{- with $srv := service ${quoted(query(name, block, block.filter))} }}
  {{- range $s := $srv}}${entry}
{{- end}}`).join("") + "\n";
  return assigned("services", body, renders);
}

/** `condition "catalog-services"`: one `catalogServicesRegistration` query. */
export function catalogServicesTemplate(block: CatalogServicesConditionBlock, renders: boolean): string {
  const options = query(block.regexp ? `regexp=${block.regexp}` : undefined, block);
  // Go ranges over the node_meta map in random order; sorted here so the file is stable.
  for (const [key, value] of Object.entries(block.node_meta).sort()) options.push(`node-meta=${key}:${value}`);
  const entry = renders
    ? `\n  "{{ $cs.Name }}" = {{ HCLServiceTags $cs.Tags }}`
    : `\n    {{- /* Empty template. Detects changes in catalog-services */ -}}`;
  const body = `
{{- with $catalogServices := catalogServicesRegistration ${options.length > 0 ? `${quoted(options)} ` : ""}}}
  {{- range $cs := $catalogServices }}${entry}
{{- end}}{{- end}}
`;
  return assigned("catalog_services", body, renders);
}

/** `condition "consul-kv"` / `module_input "consul-kv"`: `keys` with `recurse`, else `keyExistsGet`. */
export function consulKvTemplate(block: ConsulKvSelector, renders: boolean): string {
  const q = quoted(query(block.path, block));
  const pair = `\n  "{{ .Path }}" = "{{ .Value }}"\n  {{- end}}`;
  const watch = `\n  {{- /* Empty template. Detects changes in Consul KV */ -}}`;
  let body: string;
  if (block.recurse) {
    body = renders
      ? `\n{{- with $kv := keys ${q} }}\n  {{- range $k := $kv }}${pair}\n{{- end}}\n`
      : `\n{{- with $kv := keys ${q} }}\n  {{- range $k, $v := $kv }}\n${watch.slice(1)}\n  {{- end}}\n{{- end}}\n`;
  } else {
    body = renders
      ? `\n{{- with $kv := keyExistsGet ${q} }}\n  {{- if .Exists }}${pair}\n{{- end}}\n`
      : `\n{{- with $kv := keyExistsGet ${q} }}${watch}\n{{- end}}\n`;
  }
  return assigned("consul_kv", body, renders);
}
