/**
 * `terraform validate -json` read for the module mistakes CTS names: each input variable the module
 * lacks gets CTS's own sentence (client/terraform_cli.go), whatever order Terraform lists them in.
 */
import { describe, expect, it } from "vitest";
import { checkValidateOutput } from "../../../plugins/driver-terraform/src/validate-result.ts";

const unexpected = (name: string) => ({ severity: "error", summary: "Unsupported argument", detail: `An argument named "${name}" is not expected here.` });
const validate = (...diagnostics: object[]) => JSON.stringify({ valid: false, diagnostics });

describe("validate output", () => {
  it("names every missing input variable with CTS's sentence, services first, in either diagnostic order", () => {
    for (const order of [["catalog_services", "services"], ["services", "catalog_services"]]) {
      let message = "";
      try {
        checkValidateOutput("t", "./m", validate(...order.map(unexpected)), "");
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe(
        `Cannot use module "./m" for task "t": module for task "t" is missing the "services" variable; ` +
          `module for task "t" is missing the "catalog_services" variable, add to module or set "use_as_module_input" to false: ` +
          `it declares no "services" or "catalog_services" variable; add \`variable "services" {}\` and \`variable "catalog_services" {}\` ` +
          `to the module (cts-runtime always passes services and catalog_services)`,
      );
    }
  });

  it("pins CTS: one missing services variable is CTS's sentence, then what to add", () => {
    expect(() => checkValidateOutput("t", "./m", validate(unexpected("services")), "")).toThrow(
      `module for task "t" is missing the "services" variable: it declares no "services" variable; add \`variable "services" {}\` to the module`,
    );
  });

  it("other errors are listed with their summary and detail; warnings are returned", () => {
    expect(() => checkValidateOutput("t", "./m", validate({ severity: "error", summary: "Boom", detail: "it broke" }), "")).toThrow(
      `Cannot validate task "t": Boom: it broke`,
    );
    const ok = JSON.stringify({ valid: true, diagnostics: [{ severity: "warning", summary: "Deprecated", detail: "old" }] });
    expect(checkValidateOutput("t", "./m", ok, "")).toEqual({ warnings: ["Deprecated: old"] });
  });
});
