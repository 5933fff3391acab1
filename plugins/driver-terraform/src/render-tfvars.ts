/**
 * @module terraform.tfvars: the Consul data a run hands to the module, laid out as CTS's templates
 * render it (tfvars-templates.ts): variables in template order (condition, then module inputs), an
 * empty `services` last when nothing renders it, quoted keys, one entry a line, a comma after each
 * service. Unlike CTS, every key and value is escaped, so any Consul data reads back unchanged.
 */
import type { TaskInputs } from "../../../core/plugin-api/mod.ts";
import { quoteHclString } from "./hcl-value.ts";
import { renderPreamble } from "./preamble.ts";
import { writeServiceInstance } from "./render-service-instance.ts";
import type { TfvarsTemplate } from "./tfvars-templates.ts";

/** Without a task's templates: `services`, then `catalog_services` and `consul_kv` when present. */
function templatesOf(inputs: TaskInputs): TfvarsTemplate[] {
  const templates: TfvarsTemplate[] = [{ variable: "services", renders: true, text: "" }];
  if (inputs.catalog_services) templates.push({ variable: "catalog_services", renders: true, text: "" });
  if (inputs.consul_kv) templates.push({ variable: "consul_kv", renders: true, text: "" });
  return templates;
}

/** Appends the variable's entries to `out` (one array for the whole file, joined once). */
function writeEntries(out: string[], inputs: TaskInputs, variable: TfvarsTemplate["variable"]): void {
  if (variable === "services") {
    for (const [key, instance] of Object.entries(inputs.services)) {
      out.push("\n  ", quoteHclString(key), " = ");
      writeServiceInstance(out, instance);
      out.push(",");
    }
  } else if (variable === "catalog_services") {
    for (const [name, tags] of Object.entries(inputs.catalog_services ?? {})) {
      out.push(`\n  ${quoteHclString(name)} = [${tags.map(quoteHclString).join(", ")}]`);
    }
  } else {
    for (const [key, value] of Object.entries(inputs.consul_kv ?? {})) out.push(`\n  ${quoteHclString(key)} = ${quoteHclString(value)}`);
  }
}

/** The variables part alone (no preamble; starts with a newline, as CTS's first template does). */
export function renderTfvarsBody(inputs: TaskInputs, templates: readonly TfvarsTemplate[] = templatesOf(inputs)): string {
  // Written into one array and joined once: large inputs (10 000 instances) stay linear.
  const out: string[] = [];
  let servicesRendered = false;
  for (const template of templates) {
    // A watch-only template renders to an empty line.
    if (!template.renders) {
      out.push("\n");
      continue;
    }
    if (template.variable === "services") servicesRendered = true;
    out.push(`\n${template.variable} = {`);
    writeEntries(out, inputs, template.variable);
    out.push("\n}\n");
  }
  if (!servicesRendered) out.push("\nservices = {\n}\n");
  return out.join("");
}

/** The whole file; `templates` (the task's, see tfvarsTemplates) decide order and layout. */
export function renderTfvars(
  taskName: string,
  description: string,
  inputs: TaskInputs,
  templates?: readonly TfvarsTemplate[],
): string {
  // The preamble ends with a blank line; CTS's first template brings its own.
  return renderPreamble(taskName, description).slice(0, -1) + renderTfvarsBody(inputs, templates);
}
