/**
 * @module Reads `terraform validate -json` and turns the common mistake (a module that does not
 * declare an input CTS passes, such as `services`) into a message that says what to add.
 */
import { CtsError } from "../../../core/plugin-api/mod.ts";

interface Diagnostic {
  readonly severity?: string;
  readonly summary?: string;
  readonly detail?: string;
}

export interface ValidateOutcome {
  readonly warnings: readonly string[];
}

const INPUT_VARIABLES = ["services", "catalog_services", "consul_kv"];

/** Throws CTS_ERR_DRIVER for errors; returns warnings to log. */
export function checkValidateOutput(taskName: string, moduleSource: string, stdout: string, stderr: string): ValidateOutcome {
  let diagnostics: readonly Diagnostic[] = [];
  let valid = false;
  try {
    const parsed = JSON.parse(stdout) as { valid?: boolean; diagnostics?: Diagnostic[] };
    valid = parsed.valid === true;
    diagnostics = parsed.diagnostics ?? [];
  } catch {
    throw new CtsError("CTS_ERR_DRIVER", `Cannot validate task "${taskName}": ${(stderr || stdout).trim() || "validate printed no result"}`);
  }
  const describe = (d: Diagnostic) => [d.summary, d.detail].filter(Boolean).join(": ");
  const errors = diagnostics.filter((d) => d.severity === "error");
  // Every variable the module lacks, in a fixed order: Terraform's diagnostics come in no set order.
  const missing = INPUT_VARIABLES.filter((name) => errors.some((error) => (error.detail ?? "").includes(`argument named "${name}" is not expected`)));
  if (missing.length > 0) {
    // CTS's sentence for each first (client/terraform_cli.go), which scripts and CTS's e2e tests match.
    const cts = missing.map((name) =>
      `module for task "${taskName}" is missing the "${name}" variable` +
      (name === "catalog_services" ? `, add to module or set "use_as_module_input" to false` : "")).join("; ");
    throw new CtsError(
      "CTS_ERR_DRIVER",
      `Cannot use module "${moduleSource}" for task "${taskName}": ${cts}: it declares no ${missing.map((name) => `"${name}"`).join(" or ")} ` +
        `variable; add ${missing.map((name) => `\`variable "${name}" {}\``).join(" and ")} to the module ` +
        `(cts-runtime always passes ${missing.join(" and ")})`,
    );
  }
  if (!valid || errors.length > 0) {
    throw new CtsError(
      "CTS_ERR_DRIVER",
      `Cannot validate task "${taskName}": ${errors.map(describe).join("; ") || "terraform validate reported the configuration invalid"}`,
    );
  }
  return { warnings: diagnostics.filter((d) => d.severity === "warning").map(describe) };
}
