/** @module A structural JSON Schema type, so the contract needs no ajv import. */

/** A JSON Schema (draft 2020-12) object. `writeOnly: true` marks a secret to redact. */
export type JsonSchema = {
  readonly [keyword: string]: unknown;
};
