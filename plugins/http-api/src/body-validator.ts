/**
 * @module Request-body validation with ajv against the schemas in src/schemas/, turning ajv's
 * errors into one readable message (CTS answers 400 with the validator's text).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { isGoDuration, type JsonSchema, MAX_NESTING, tooDeep } from "../../../core/plugin-api/mod.ts";
import { HttpError } from "./api-errors.ts";
import { schemaErrorText } from "./schema-error-text.ts";

// ajv-formats is CommonJS: under Node ESM the function sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

export type BodyValidator<T> = (body: unknown) => T;

export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  // The kernel gives plugin schemas this format (a task block's `timeout = "30s"`): requests use them too.
  ajv.addFormat("go-duration", { type: "string", validate: isGoDuration });
  return ajv;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "request body" : `request body ${error.instancePath}`;
  if (error.keyword === "additionalProperties") {
    return `${where} has unsupported key '${(error.params as { additionalProperty: string }).additionalProperty}'`;
  }
  if (error.keyword === "required") {
    return `${where} is missing required key '${(error.params as { missingProperty: string }).missingProperty}'`;
  }
  if (error.keyword === "maxProperties" || error.keyword === "minProperties") {
    return `${where} must have exactly one key`;
  }
  return `${where} ${error.message ?? "is invalid"}`;
}

/**
 * Compiles `schema` once; the returned function throws a 400 `HttpError` listing every problem.
 * With `schemaRef` (a body CTS checks against its OpenAPI document) the text is CTS's.
 */
export function bodyValidator<T>(ajv: Ajv, schema: JsonSchema, schemaRef?: string): BodyValidator<T> {
  const validate: ValidateFunction = ajv.compile(schema as object);
  return (body: unknown): T => {
    if (validate(body)) return body as T;
    if (schemaRef !== undefined) throw new HttpError(400, schemaErrorText(schemaRef, validate.errors ?? []));
    const messages = [...new Set((validate.errors ?? []).map(describe))];
    throw new HttpError(400, `invalid request: ${messages.join("; ")}`);
  };
}

/** A request body that stopped arriving: the client went away, or was cut off at the request deadline. */
export class IncompleteBodyError extends HttpError {
  constructor(cause: unknown) {
    super(400, `invalid request: the request body did not arrive whole (${(cause as Error).message})`);
  }
}

/**
 * Reads a JSON body; empty or malformed JSON is a 400, not a crash. A body that stops arriving (the
 * client went away, or was cut off at the request deadline) is a 400 too: the client's doing, so
 * the daemon logs it at DEBUG with the request, never as a daemon error.
 */
export async function readJson(request: Request): Promise<unknown> {
  let text: string;
  try {
    text = await request.text();
  } catch (error) {
    throw new IncompleteBodyError(error);
  }
  if (text.trim() === "") throw new HttpError(400, "invalid request: request body is empty, expected a JSON object");
  const deep = tooDeep(text, false);
  if (deep) throw new HttpError(400, `invalid request: request body nests more than ${MAX_NESTING} levels deep at line ${deep.line}, column ${deep.column}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `invalid request: request body is not valid JSON: ${(error as Error).message}`);
  }
}
