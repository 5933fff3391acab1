/**
 * @module The Consul-data templates of a task as CTS lays them out: one for the condition, then one
 * per module_input, in configuration order. Each fills one input variable (or, with
 * `use_as_module_input = false`, only watches). Their text is what CTS writes to
 * terraform.tfvars.tmpl (hcat/Go-template syntax: tools and people reading that file find CTS's
 * queries); their order and kind decide the layout of terraform.tfvars (render-tfvars.ts).
 */
import type { InputVariable, TaskConfig } from "../../../core/plugin-api/mod.ts";

export interface TfvarsTemplate {
  readonly variable: InputVariable;
  /** False when the template only watches (`use_as_module_input = false`). */
  readonly renders: boolean;
  /** The template text CTS writes for it to terraform.tfvars.tmpl. */
  readonly text: string;
}

interface Selector {
  readonly names?: readonly string[];
  readonly regexp?: string;
  readonly filter?: string;
  readonly datacenter?: string;
  readonly namespace?: string;
  readonly path?: string;
  readonly recurse?: boolean;
  readonly node_meta?: Readonly<Record<string, string>>;
  readonly use_as_module_input?: boolean;
}

/** The condition's template (services, catalog-services, consul-kv), then each module_input's. */
export function tfvarsTemplates(task: TaskConfig): TfvarsTemplate[] {
  const templates: TfvarsTemplate[] = [];
  const condition = task.condition as Selector & { type: string };
  const conditionTemplate = templateFor(condition.type, condition, condition.use_as_module_input !== false);
  if (conditionTemplate !== undefined) templates.push(conditionTemplate);
  for (const input of task.module_input) {
    const template = templateFor(input.type, input as Selector, true);
    if (template !== undefined) templates.push(template);
  }
  return templates;
}

function templateFor(type: string, selector: Selector, renders: boolean): TfvarsTemplate | undefined {
  switch (type) {
    case "services":
      return selector.regexp !== undefined ? servicesRegexTemplate(selector, renders) : servicesTemplate(selector, renders);
    case "catalog-services":
      return catalogServicesTemplate(selector, renders);
    case "consul-kv":
      return consulKvTemplate(selector, renders);
    default:
      return undefined;
  }
}

/** hcat's query arguments, each double-quoted (a filter's quotes escaped, as CTS does). */
function query(first: string | undefined, selector: Selector, filter = false): string[] {
  const options = first === undefined ? [] : [first];
  if (selector.datacenter) options.push(`dc=${selector.datacenter}`);
  if (selector.namespace) options.push(`ns=${selector.namespace}`);
  if (filter && selector.filter) options.push(selector.filter.replaceAll(`"`, `\\"`).replace(/^\n+|\n+$/g, ""));
  return options;
}

const quoted = (options: readonly string[]): string => options.length === 0 ? "" : `"${options.join(`" "`)}"`;

const SERVICE_ENTRY = `
  "{{ joinStrings "." .ID .Node .Namespace .NodeDatacenter }}" = {
{{ HCLService $s | indent 4 }}
  },
  {{- end}}`;
const SERVICES_WATCH_ONLY = `
  {{- /* Empty template. Detects changes in Services */ -}}
  {{- end}}`;

function servicesTemplate(selector: Selector, renders: boolean): TfvarsTemplate {
  const names = [...(selector.names ?? [])].sort();
  const body = names.map((name) => `
{{- with $srv := service ${quoted(query(name, selector, true))} }}
  {{- range $s := $srv}}${renders ? SERVICE_ENTRY : SERVICES_WATCH_ONLY}
{{- end}}`).join("") + "\n";
  return { variable: "services", renders, text: renders ? `\nservices = {${body}}\n` : body };
}

function servicesRegexTemplate(selector: Selector, renders: boolean): TfvarsTemplate {
  const body = `
{{- with $srv := servicesRegex ${quoted(query(`regexp=${selector.regexp}`, selector, true))} }}
  {{- range $s := $srv}}${renders ? SERVICE_ENTRY : SERVICES_WATCH_ONLY}
{{- end}}
`;
  return { variable: "services", renders, text: renders ? `\nservices = {${body}}\n` : body };
}

function catalogServicesTemplate(selector: Selector, renders: boolean): TfvarsTemplate {
  const options = query(selector.regexp ? `regexp=${selector.regexp}` : undefined, selector);
  // Go ranges over the node_meta map in random order; sorted here so the file is stable.
  for (const [key, value] of Object.entries(selector.node_meta ?? {}).sort()) options.push(`node-meta=${key}:${value}`);
  const entry = renders
    ? `\n  "{{ $cs.Name }}" = {{ HCLServiceTags $cs.Tags }}`
    : `\n    {{- /* Empty template. Detects changes in catalog-services */ -}}`;
  const body = `
{{- with $catalogServices := catalogServicesRegistration ${options.length > 0 ? `${quoted(options)} ` : ""}}}
  {{- range $cs := $catalogServices }}${entry}
{{- end}}{{- end}}
`;
  return { variable: "catalog_services", renders, text: renders ? `\ncatalog_services = {${body}}\n` : body };
}

function consulKvTemplate(selector: Selector, renders: boolean): TfvarsTemplate {
  const q = quoted(query(selector.path ?? "", selector));
  const pair = `\n  "{{ .Path }}" = "{{ .Value }}"\n  {{- end}}`;
  const watch = `\n  {{- /* Empty template. Detects changes in Consul KV */ -}}`;
  let body: string;
  if (selector.recurse === true) {
    body = renders
      ? `\n{{- with $kv := keys ${q} }}\n  {{- range $k := $kv }}${pair}\n{{- end}}\n`
      : `\n{{- with $kv := keys ${q} }}\n  {{- range $k, $v := $kv }}\n${watch.slice(1)}\n  {{- end}}\n{{- end}}\n`;
  } else {
    body = renders
      ? `\n{{- with $kv := keyExistsGet ${q} }}\n  {{- if .Exists }}${pair}\n{{- end}}\n`
      : `\n{{- with $kv := keyExistsGet ${q} }}${watch}\n{{- end}}\n`;
  }
  return { variable: "consul_kv", renders, text: renders ? `\nconsul_kv = {${body}}\n` : body };
}

/** terraform.tfvars.tmpl after the preamble: the templates, then an empty `services` when none renders it. */
export function tfvarsTemplateBody(templates: readonly TfvarsTemplate[]): string {
  const texts = templates.map((template) => template.text);
  if (!templates.some((template) => template.variable === "services" && template.renders)) texts.push("\nservices = {\n}\n");
  return texts.join("");
}
