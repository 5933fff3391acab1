/**
 * @module Checks a block a plugin owns (the `driver` body, a `condition` or `module_input` block)
 * against the owner's JSON Schema with the kernel's ajv (the one plugin options use): every problem
 * with its file and CTS-style field path, the owner's defaults applied, the result deep-frozen.
 */
import type { Ajv, ValidateFunction } from "ajv";
import type { JsonSchema } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "../config/config-error.ts";
import { issuesFromAjv } from "../config/config-schemas.ts";
import { deepFreeze } from "../config/deep-freeze.ts";
import { weakDecodeBlock } from "../config/weak-decode.ts";

type Fields = Readonly<Record<string, unknown>>;

/** A registered factory: its name is the block label, its schema describes the block body. */
export interface BlockOwner {
  readonly name: string;
  readonly optionsSchema?: JsonSchema;
  /** Deprecated field → current field; applied with `decode` (ConditionFactory.renamedFields). */
  readonly renamedFields?: Readonly<Record<string, string>>;
}

export type CheckedBlock =
  | { readonly ok: true; readonly value: Fields }
  | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

export class BlockOptions {
  readonly #ajv: Ajv;
  // By schema object: a schema is compiled once however many tasks use it.
  readonly #compiled = new WeakMap<object, ValidateFunction | string>();

  constructor(ajv: Ajv) {
    this.#ajv = ajv;
  }

  /**
   * `fields` is the block as core/config built it; a `type` field (the block label) reaches only a
   * schema that declares it and is put back afterwards, so owners need not spell their own label.
   * With `decode` (condition and module_input blocks) the owner's renamed fields first move to their
   * new names, then the body is weakly decoded by the owner's schema as CTS decodes those blocks
   * (weak-decode.ts: block-syntax maps, one-element lists, `"true"` for a boolean).
   */
  check(owner: BlockOwner, fields: Fields, file: string, path: string, decode = false): CheckedBlock {
    if (decode) fields = renamed(fields, owner.renamedFields);
    const schema = owner.optionsSchema;
    if (schema === undefined) return { ok: true, value: deepFreeze(structuredClone(fields) as Fields) };
    const validate = this.#compile(schema);
    if (typeof validate === "string") {
      return { ok: false, issues: [{ file, path, message: `cannot check this block: the plugin's optionsSchema is invalid: ${validate}` }] };
    }
    const hasLabel = "type" in fields && (schema.properties as Fields | undefined)?.type === undefined;
    const { type: label, ...rest } = fields;
    // A copy: config objects are frozen, and defaults are written into what ajv validates.
    const copy = structuredClone(hasLabel ? rest : fields) as Record<string, unknown>;
    const input = (decode ? weakDecodeBlock(copy, schema as Record<string, unknown>) : copy) as Record<string, unknown>;
    if (!validate(input)) return { ok: false, issues: issuesFromAjv(validate.errors, file, {}, path) };
    return { ok: true, value: deepFreeze(hasLabel ? { ...input, type: label } : input) };
  }

  #compile(schema: JsonSchema): ValidateFunction | string {
    let entry = this.#compiled.get(schema);
    if (entry === undefined) {
      try {
        entry = this.#ajv.compile(schema as Record<string, unknown>);
      } catch (error) {
        entry = (error as Error).message;
      }
      this.#compiled.set(schema, entry);
    }
    return entry;
  }
}

/** `fields` with each deprecated field moved to its current name; a set current field wins. */
export function renamed(fields: Fields, renames: Readonly<Record<string, string>> | undefined): Fields {
  if (renames === undefined || !Object.keys(renames).some((old) => old in fields)) return fields;
  const out: Record<string, unknown> = { ...fields };
  for (const [old, current] of Object.entries(renames)) {
    if (!(old in out)) continue;
    if (out[current] === undefined) out[current] = out[old];
    delete out[old];
  }
  return out;
}
