/**
 * @module Terraform's rule for a workspace name, which a task's name becomes with the Terraform and
 * HCP Terraform drivers: Terraform refuses a name it would have to escape in a URL path, and HCP
 * Terraform takes letters, digits, "-" and "_". So of the names a task may have (letters, digits,
 * "_", "-"), only ASCII ones can run; a driver says so when the task is checked, not when it runs.
 */
import type { BlockProblem } from "./json-schema.ts";
import { quoteValue } from "./quote-value.ts";

/** The problem of a task whose name cannot be a Terraform workspace name (path `name`), if any. */
export function workspaceNameProblems(name: string): BlockProblem[] {
  if (/^[A-Za-z0-9_-]+$/.test(name)) return [];
  return [{
    path: "name",
    message: `${quoteValue(name)} cannot name a Terraform workspace: Terraform takes only names it need not escape in a URL, ` +
      'so a task name may use only ASCII letters, digits, "_" and "-" with this driver',
  }];
}
