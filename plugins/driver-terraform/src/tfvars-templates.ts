/**
 * @module The Consul-data templates of a task as CTS lays them out: one for the condition, then one
 * per module_input, in configuration order. Each fills one input variable (or, with
 * `use_as_module_input = false`, only watches). Their text is what CTS writes to
 * terraform.tfvars.tmpl (hcat/Go-template syntax: tools and people reading that file find CTS's
 * queries); their order and kind decide the layout of terraform.tfvars (render-tfvars.ts). Each
 * block's owner writes its text (`DriverContext.templates`): this driver reads no block's fields.
 */
import type { InputVariable, TaskInputSpec, TaskInputTemplate } from "../../../core/plugin-api/mod.ts";

export interface TfvarsTemplate {
  readonly variable: InputVariable;
  /** False when the template only watches (`use_as_module_input = false`). */
  readonly renders: boolean;
  /** The template text CTS writes for it to terraform.tfvars.tmpl; absent when the block's owner gives none. */
  readonly text?: string;
}

/**
 * The engine's templates (`DriverContext.templates`) in block order, each rendered variable of
 * `inputs` whose block gives no template (a third-party condition without one, a context built
 * without templates) slotted in at its block's place: terraform.tfvars still carries its value.
 */
export function tfvarsTemplates(
  inputs: readonly TaskInputSpec[],
  templates: readonly TaskInputTemplate[] = [],
): TfvarsTemplate[] {
  const out: TfvarsTemplate[] = [];
  let next = 0;
  const bareUntil = (end: number): void => {
    for (; next < end; next++) out.push({ variable: inputs[next]!.variable, renders: true });
  };
  for (const template of templates) {
    if (template.variable !== undefined) {
      const at = inputs.findIndex((spec, index) => index >= next && spec.block === template.block &&
        spec.type === template.type && spec.variable === template.variable);
      if (at >= 0) {
        bareUntil(at);
        next = at + 1;
      }
    }
    out.push({ variable: template.variable ?? "", renders: template.variable !== undefined, text: template.text });
  }
  bareUntil(inputs.length);
  return out;
}

/** terraform.tfvars.tmpl after the preamble: the templates, then an empty `services` when none renders it. */
export function tfvarsTemplateBody(templates: readonly TfvarsTemplate[]): string {
  const written = templates.filter((template) => template.text !== undefined);
  const texts = written.map((template) => template.text);
  if (!written.some((template) => template.variable === "services" && template.renders)) texts.push("\nservices = {\n}\n");
  return texts.join("");
}
