/**
 * @module A structural JSON Schema type, so the contract needs no ajv import, and the options type
 * a schema describes (`OptionsOf`), so a block's schema is its one description.
 */
import type { FromSchema, JSONSchema } from "json-schema-to-ts";

/** A JSON Schema (draft 2020-12) object. `writeOnly: true` marks a secret to redact. */
export type JsonSchema = {
  readonly [keyword: string]: unknown;
};

/**
 * One problem a plugin finds in a block it owns, beyond its schema (a `validate` hook): `path` is
 * inside the block, CTS style (`regexp`, `workspaces.tags`; `""` for the block itself). The kernel
 * prefixes the block's own path and file.
 */
export interface BlockProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * The options a block's owner receives for a schema written `as const`: the fields with defaults
 * are always present (the kernel fills them in before any hook runs), and the whole is read-only
 * (the kernel freezes it). json-schema-to-ts infers it at compile time; nothing runs.
 *
 * ```ts
 * const schema = { type: "object", additionalProperties: false, required: ["key"],
 *   properties: { key: { type: "string" }, colour: { type: "string", enum: ["blue", "red"], default: "blue" } } } as const;
 * type FlagOptions = OptionsOf<typeof schema>; // { readonly key: string; readonly colour: "blue" | "red" }
 * ```
 */
export type OptionsOf<S extends JSONSchema> = DeepReadonly<FromSchema<S, { keepDefaultedPropertiesOptional: false }>>;

/** `T` read-only at every depth (the kernel deep-freezes block options). */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown ? T
  : T extends readonly (infer I)[] ? readonly DeepReadonly<I>[]
  : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
  : T;
