/** @module A structural JSON Schema type, so the contract needs no ajv import. */

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
