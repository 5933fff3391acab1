/**
 * @module CTS's wording for a request body that fails its OpenAPI schema. CTS validates
 * `POST /v1/tasks` with kin-openapi, so a CTS user sees (and scripts match) e.g.
 * `request body has an error: doesn't match schema #/components/schemas/TaskRequest: Error at
 * "/task/module": value must be a string`. This turns one ajv error into that sentence's tail.
 */
import type { ErrorObject } from "ajv";

const article = (type: string) => (/^[aeiou]/.test(type) ? "an" : "a");

/** kin-openapi's reason for one failed keyword (its `Error at "<path>": <reason>`). */
function reason(error: ErrorObject): { path: string; text: string } {
  const params = error.params as Record<string, unknown>;
  const path = error.instancePath;
  switch (error.keyword) {
    case "type": {
      const type = String(params.type).split(",")[0]!;
      return { path, text: `value must be ${article(type)} ${type}` };
    }
    case "required":
      return { path: `${path}/${String(params.missingProperty)}`, text: `property "${String(params.missingProperty)}" is missing` };
    case "additionalProperties":
      return { path, text: `property "${String(params.additionalProperty)}" is unsupported` };
    case "enum":
      return { path, text: `value is not one of the allowed values ${JSON.stringify(params.allowedValues)}` };
    case "pattern":
      return { path, text: `string doesn't match the regular expression "${String(params.pattern)}"` };
    case "minLength":
      return { path, text: `minimum string length is ${String(params.limit)}` };
    case "maxLength":
      return { path, text: `maximum string length is ${String(params.limit)}` };
    case "minItems":
      return { path, text: `minimum number of items is ${String(params.limit)}` };
    case "maxItems":
      return { path, text: `maximum number of items is ${String(params.limit)}` };
    // CTS's condition and module_input are one-key objects; say so plainly.
    case "minProperties":
    case "maxProperties":
      return { path, text: "must have exactly one key" };
    default:
      return { path, text: error.message ?? "is invalid" };
  }
}

/** `request body has an error: doesn't match schema <ref>: Error at "<path>": <reason>[; ...]`. */
export function schemaErrorText(schemaRef: string, errors: readonly ErrorObject[]): string {
  const reasons = [...new Set(errors.map((error) => {
    const { path, text } = reason(error);
    return `Error at "${path === "" ? "/" : path}": ${text}`;
  }))];
  return `request body has an error: doesn't match schema ${schemaRef}: ${reasons.join("; ")}`;
}
