/**
 * @module Checks a block a plugin owns (the `driver` body, a `condition` or `module_input` block)
 * against the owner's JSON Schema with the kernel's ajv (the one plugin options use): every problem
 * with its file and CTS-style field path, the owner's defaults applied, the result deep-frozen.
 * A block is decoded once: the decoded result is remembered by the block as written (config blocks
 * are frozen, so the same object is the same block), and a block this class decoded passes through
 * as it is, so the config check, the task's completion and every hook that receives the completed
 * block share one decoding.
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

/** The decoding key of an owner with neither a schema nor renamed fields (its decoding is a frozen copy). */
const NO_SCHEMA = Object.freeze({});

export class BlockOptions {
  readonly #ajv: Ajv;
  // By schema object: a schema is compiled once however many tasks use it.
  readonly #compiled = new WeakMap<object, ValidateFunction | string>();
  // Block as written → owner (by schema) → its decoded block; and each decoded block handed out → its owner.
  readonly #decodedFrom = new WeakMap<object, WeakMap<object, Fields>>();
  readonly #decoded = new WeakMap<object, object>();
  // Block as written → owner (by schema) → variant → what `once` computed for it.
  readonly #computed = new WeakMap<object, WeakMap<object, Map<string, unknown>>>();

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
    const key = keyOf(owner);
    // A block this class checked for the same owner already (a completed task's, a driver's body).
    if (this.#decoded.get(fields) === key) return { ok: true, value: fields };
    if (!decode) {
      const result = this.#checked(owner, fields, file, path, false);
      if (result.ok) this.#decoded.set(result.value, key);
      return result;
    }
    const known = this.#decodedFrom.get(fields)?.get(key);
    if (known !== undefined) return { ok: true, value: known };
    const result = this.#checked(owner, renamed(fields, owner.renamedFields), file, path, true);
    if (result.ok && Object.isFrozen(fields)) {
      // Only a frozen block can be remembered: a mutable one could change before it is read again.
      let byOwner = this.#decodedFrom.get(fields);
      if (byOwner === undefined) this.#decodedFrom.set(fields, byOwner = new WeakMap());
      byOwner.set(key, result.value);
    }
    if (result.ok) this.#decoded.set(result.value, key);
    return result;
  }

  /**
   * `compute()` once per block as written, owner and `variant`, for a block the kernel decodes by
   * rules of its own before `check` (a driver body: shaped by the schema, decoded as its file's format
   * asks; its variant names the file and path), so the config check and the kernel's completion
   * share one decoding and one check. Only a frozen block is remembered, as in `check`.
   */
  once<T>(owner: BlockOwner, fields: Fields, variant: string, compute: () => T): T {
    if (!Object.isFrozen(fields)) return compute();
    let byOwner = this.#computed.get(fields);
    if (byOwner === undefined) this.#computed.set(fields, byOwner = new WeakMap());
    let byVariant = byOwner.get(keyOf(owner));
    if (byVariant === undefined) byOwner.set(keyOf(owner), byVariant = new Map());
    if (!byVariant.has(variant)) byVariant.set(variant, compute());
    return byVariant.get(variant) as T;
  }

  #checked(owner: BlockOwner, fields: Fields, file: string, path: string, decode: boolean): CheckedBlock {
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

/** What tells owners' decodings apart: the schema, else the renamed fields, else "none". */
const keyOf = (owner: BlockOwner): object => owner.optionsSchema ?? owner.renamedFields ?? NO_SCHEMA;

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
