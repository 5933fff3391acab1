/**
 * @module The TypeScript type of an API body, inferred from its JSON Schema (written `as const`), so
 * the code that reads a request or builds a response is checked against the schema the OpenAPI
 * document serves: a builder that leaves out a required field, or adds one the schema does not
 * list, does not compile. json-schema-to-ts infers it at compile time; nothing runs.
 */
import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type { inputChangeSchema, runOutputSchema, runRecordSchema } from "./run-history.schema.ts";
import type { driftStateSchema, resourceActionsSchema, resourceChangeSchema } from "./task-changes.schema.ts";

/** The document's components that schemas point at with `$ref: "#/components/schemas/<name>"`. */
interface ReferencedComponents {
  readonly DriftState: typeof driftStateSchema;
  readonly InputChange: typeof inputChangeSchema;
  readonly ResourceActions: typeof resourceActionsSchema;
  readonly ResourceChange: typeof resourceChangeSchema;
  readonly RunOutput: typeof runOutputSchema;
  readonly RunRecord: typeof runRecordSchema;
}

/**
 * The body a schema describes. Unlike the contract's `OptionsOf` (block options: the kernel fills in
 * defaults and freezes them, so defaulted fields are always present), a body is what a client sends
 * or what a route builds: a field with a default may be absent, and `$ref`s resolve against the
 * served document's components (as the schema is placed in it). Fields an open schema does not list
 * are refused too (`Listed`): what a route answers is what the document shows. Read-only at every
 * depth, so a route may answer the contract's read-only data as it is. (TypeScript checks the type
 * of a field added by a conditional spread, `...(x ? { key } : {})`, but not whether its key is listed.)
 */
export type ApiBody<S extends JSONSchema> = Listed<FromSchema<
  S & { readonly components: { readonly schemas: ReferencedComponents } },
  { keepDefaultedPropertiesOptional: true }
>>;

/**
 * `T` read-only at every depth, without the `[key: string]: unknown` json-schema-to-ts gives an
 * object schema that does not say `additionalProperties: false`. A map the schema types
 * (`additionalProperties: {...}`) keeps its index.
 */
type Listed<T> = T extends readonly (infer I)[] ? readonly Listed<I>[]
  : T extends object ? { readonly [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Listed<T[K]> }
  : T;
