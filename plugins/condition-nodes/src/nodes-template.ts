/**
 * @module The block's text in terraform.tfvars.tmpl, in hcat's template syntax (its `nodes` query,
 * as consul-template names it), so people and tools reading that file see what the task watches.
 */
import type { NodesModuleInputOptions } from "./nodes-options.ts";

/** The query arguments hcat takes: `@dc`, `node-meta=k:v` (sorted), the filter with quotes escaped. */
function queryArguments(options: NodesModuleInputOptions): string {
  const args: string[] = [];
  if (options.datacenter) args.push(`@${options.datacenter}`);
  for (const key of Object.keys(options.node_meta).sort()) args.push(`node-meta=${key}:${options.node_meta[key]}`);
  if (options.filter.trim()) args.push(options.filter.trim().replaceAll(`"`, `\\"`));
  return args.map((arg) => ` "${arg}"`).join("");
}

const ENTRY = `
  {
    id               = "{{ .ID }}"
    node             = "{{ .Node }}"
    address          = "{{ .Address }}"
    datacenter       = "{{ .Datacenter }}"
    tagged_addresses = {{ HCLMap .TaggedAddresses }}
    meta             = {{ HCLMap .Meta }}
  },`;

export function nodesTemplate(options: NodesModuleInputOptions, renders: boolean): string {
  const query = `{{- range nodes${queryArguments(options)} }}`;
  if (!renders) return `\n${query}\n  {{- /* Empty template. Detects changes in nodes */ -}}\n{{- end}}\n`;
  return `\nnodes = [\n${query}${ENTRY}\n{{- end}}\n]\n`;
}
