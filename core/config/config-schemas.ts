/**
 * @module The config JSON Schemas in `schemas/config/`, compiled once with ajv (all errors at once,
 * strict), and the translation of ajv errors into CTS-style issues.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { pathKind, pathOfFileUrl, readTextFile } from "../runtime/config-files.ts";
import type { ConfigIssue } from "./config-error.ts";
import { closestName } from "./closest-name.ts";
import { childPath, pointerToPath } from "./field-path.ts";
import { isGoDuration, isGoDurationSyntax, quoteValue } from "../plugin-api/mod.ts";

export interface ConfigSchemas {
  readonly root: ValidateFunction;
  readonly task: ValidateFunction;
  readonly rootSchema: Record<string, unknown>;
  /** Every config schema document by `$id`, for walking `$ref`s (weak decoding). */
  readonly documents: ReadonlyMap<string, Record<string, unknown>>;
}

let compiled: Promise<ConfigSchemas> | undefined;

/** Compiles the config schemas on first use; later calls share the result. */
export function configSchemas(): Promise<ConfigSchemas> {
  compiled ??= compileSchemas();
  return compiled;
}

/** A fresh ajv set up as every config validation here expects it (also used for plugin schemas). */
export function createConfigAjv(): Ajv {
  // verbose: errors carry the offending value and schema, so messages can show both.
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, allowUnionTypes: true });
  ajv.addFormat("go-duration", { type: "string", validate: isGoDuration });
  return ajv;
}

async function compileSchemas(): Promise<ConfigSchemas> {
  const dir = await findSchemaDir();
  const taskSchema = JSON.parse(await readTextFile(`${dir}/task.schema.json`));
  const rootSchema = JSON.parse(await readTextFile(`${dir}/cts-config.schema.json`));
  const ajv = createConfigAjv();
  ajv.addSchema(taskSchema);
  const documents = new Map([[rootSchema.$id, rootSchema], [taskSchema.$id, taskSchema]]);
  return { root: ajv.compile(rootSchema), task: ajv.getSchema(taskSchema.$id)!, rootSchema, documents };
}

/** `schemas/config` at the package root: two levels up in the source tree, three from `dist/`. */
async function findSchemaDir(): Promise<string> {
  for (const up of ["../../schemas/config", "../../../schemas/config"]) {
    const dir = pathOfFileUrl(new URL(up, import.meta.url));
    if ((await pathKind(`${dir}/cts-config.schema.json`)) === "file") return dir;
  }
  throw new Error(`Cannot find schemas/config next to ${import.meta.url}`);
}

const HINTS: Readonly<Record<string, string>> = {
  provider: `did you mean "terraform_provider"?`,
};

/** One issue per ajv error, with CTS-style paths; `offsets` shift top-level list indexes. */
export function issuesFromAjv(
  errors: readonly ErrorObject[] | null | undefined,
  file: string,
  offsets: Readonly<Record<string, number>> = {},
  basePath = "",
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const error of errors ?? []) {
    // `propertyNames` wraps the error of the name itself (reported with the name, below).
    if (error.keyword === "allOf" || error.keyword === "if" || error.keyword === "propertyNames") continue;
    const at = prefix(basePath, pointerToPath(error.instancePath, offsets));
    issues.push(issueOf(error, at, file));
  }
  return dedupe(issues);
}

function issueOf(error: ErrorObject, at: string, file: string): ConfigIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      // Fields marked `readOnly` are set by the runtime, not written by users: not offered as alternatives.
      const properties = (error.parentSchema?.properties ?? {}) as Record<string, { readOnly?: unknown } | boolean>;
      const known = Object.keys(properties).filter((name) => (properties[name] as { readOnly?: unknown }).readOnly !== true).sort();
      const close = closestName(key, known);
      const hint = (at === "" ? HINTS[key] : undefined) ?? (close !== undefined ? `did you mean "${close}"?` : undefined);
      const expected = hint ?? (known.length > 0 ? `expected one of: ${known.join(", ")}` : "");
      return { file, path: childPath(at, key), message: `unknown field "${key}"${expected ? ` (${expected})` : ""}` };
    }
    case "required":
      return { file, path: childPath(at, String(params.missingProperty)), message: "is required" };
    case "type":
      return { file, path: at, message: `must be ${article(String(params.type))}, got ${describe(error.data)}` };
    case "format":
      if (params.format !== "go-duration") return { file, path: at, message: `must match format ${String(params.format)}` };
      return typeof error.data === "string" && isGoDurationSyntax(error.data)
        ? { file, path: at, message: `${describe(error.data)} is longer than Go's longest duration (2562047h47m16s): CTS refuses it too` }
        : { file, path: at, message: `must be a duration such as "5s", "1m30s" or "1h", got ${describe(error.data)}` };
    case "enum": {
      const allowed = (params.allowedValues as unknown[] | undefined ?? []).map(String).join(", ");
      // A label (`backend "foo" {}`) checked by `propertyNames`: the name is the wrong part.
      const label = (error as ErrorObject & { propertyName?: string }).propertyName;
      return label !== undefined
        ? { file, path: at, message: `"${label}" is not supported (expected one of: ${allowed})` }
        : { file, path: at, message: `must be one of: ${allowed}, got ${describe(error.data)}` };
    }
    case "minLength":
      return { file, path: at, message: "must not be empty" };
    case "maxProperties":
      return { file, path: at, message: `only one "${lastKey(at)}" block can be configured` };
    case "minProperties":
      return { file, path: at, message: "must have a label" };
    default:
      return { file, path: at, message: error.message ?? "is invalid" };
  }
}

function prefix(base: string, path: string): string {
  if (base === "") return path;
  if (path === "") return base;
  return path.startsWith("[") ? `${base}${path}` : `${base}.${path}`;
}

function article(type: string): string {
  const names: Record<string, string> = {
    object: "a block/object", array: "a list", string: "a string", boolean: "a boolean (true or false)",
    integer: "a whole number", number: "a number",
  };
  return type.split(",").map((one) => names[one] ?? one).join(" or ");
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "object") return "a block/object";
  if (typeof value === "string") return quoteValue(value);
  return `${typeof value} ${String(value)}`;
}

function lastKey(path: string): string {
  return path.replace(/\[\d+\]/g, "").split(".").pop() ?? path;
}

function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.file}\0${issue.path}\0${issue.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}
