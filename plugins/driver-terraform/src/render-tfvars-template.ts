/**
 * @module terraform.tfvars.tmpl: CTS writes the hcat template its terraform.tfvars is rendered from
 * into every task's working directory, for each task at initialisation (disabled ones too). The
 * driver renders terraform.tfvars itself, but writes the same template file so the directory holds
 * what a CTS directory holds.
 */
import { renderPreamble } from "./preamble.ts";
import type { RootModuleModel } from "./root-module-model.ts";
import { tfvarsTemplateBody } from "./tfvars-templates.ts";

export function renderTfvarsTemplate(model: Pick<RootModuleModel, "taskName" | "description" | "templates">): string {
  // The preamble ends with a blank line; CTS's first template brings its own.
  return renderPreamble(model.taskName, model.description).slice(0, -1) + tfvarsTemplateBody(model.templates);
}
