/**
 * @module terraform.tfvars: the Consul data a run hands to the module, laid out as CTS's templates
 * render it (tfvars-templates.ts): variables in template order (condition, then module inputs), an
 * empty `services` last when nothing renders it, quoted keys, one entry a line, a comma after each
 * service. Unlike CTS, every key and value is escaped, so any Consul data reads back unchanged.
 * A variable a third-party block publishes follows at its block's place, encoded as plain HCL.
 */
import type { TaskInputs } from "../../../core/plugin-api/mod.ts";
import { HclByteWriter } from "./hcl-byte-writer.ts";
import { encodeHclValue, quoteHclString } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";
import { writeServiceEntry } from "./render-service-instance.ts";
import type { TfvarsTemplate } from "./tfvars-templates.ts";
import { BUILTIN_INPUT_VARIABLES } from "./root-module-model.ts";

/** Without a task's templates: `services`, then `catalog_services` and `consul_kv` when present. */
function templatesOf(inputs: TaskInputs): TfvarsTemplate[] {
  const templates: TfvarsTemplate[] = [{ variable: "services", renders: true }];
  if (inputs.catalog_services) templates.push({ variable: "catalog_services", renders: true });
  if (inputs.consul_kv) templates.push({ variable: "consul_kv", renders: true });
  return templates;
}

/** Writes the variable's entries into the writer of the whole file. */
function writeEntries(w: HclByteWriter, inputs: TaskInputs, variable: TfvarsTemplate["variable"]): void {
  if (variable === "services") {
    const services = inputs.services;
    for (const key of Object.keys(services)) writeServiceEntry(w, key, services[key]!);
  } else if (variable === "catalog_services") {
    for (const [name, tags] of Object.entries(inputs.catalog_services ?? {})) {
      w.text(`\n  ${quoteHclString(name)} = [${tags.map(quoteHclString).join(", ")}]`);
    }
  } else {
    for (const [key, value] of Object.entries(inputs.consul_kv ?? {})) w.text(`\n  ${quoteHclString(key)} = ${quoteHclString(value)}`);
  }
}

/**
 * A third-party block's variable, its value encoded as `terraform fmt` writes it. Before its source
 * published anything (the file init writes) it is left out: `terraform validate` needs no values.
 */
function writeOtherInput(w: HclByteWriter, variable: string, value: unknown): void {
  if (value === undefined) return;
  w.text(`\n${variable} = ${encodeHclValue(value, 0)}\n`);
}

/** The variables part alone (no preamble; starts with a newline, as CTS's first template does). */
export function renderTfvarsBody(inputs: TaskInputs, templates: readonly TfvarsTemplate[] = templatesOf(inputs)): string {
  const w = new HclByteWriter();
  writeBody(w, inputs, templates);
  return w.finish();
}

function writeBody(w: HclByteWriter, inputs: TaskInputs, templates: readonly TfvarsTemplate[]): void {
  let servicesRendered = false;
  for (const template of templates) {
    // A watch-only template renders to an empty line.
    if (!template.renders) {
      w.text("\n");
      continue;
    }
    if (!BUILTIN_INPUT_VARIABLES.has(template.variable)) {
      writeOtherInput(w, template.variable, inputs[template.variable]);
      continue;
    }
    if (template.variable === "services") servicesRendered = true;
    w.text(`\n${template.variable} = {`);
    writeEntries(w, inputs, template.variable);
    w.text("\n}\n");
  }
  if (!servicesRendered) w.text("\nservices = {\n}\n");
}

/** The whole file; `templates` (the task's, see tfvarsTemplates) decide order and layout. */
export function renderTfvars(
  taskName: string,
  description: string,
  inputs: TaskInputs,
  templates?: readonly TfvarsTemplate[],
): string {
  // The preamble ends with a blank line; CTS's first template brings its own.
  const w = new HclByteWriter();
  w.text(renderPreamble(taskName, description).slice(0, -1));
  writeBody(w, inputs, templates ?? templatesOf(inputs));
  return w.finish();
}
