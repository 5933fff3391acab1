/**
 * @module The task schemas for the conditions and module inputs this daemon has registered, built
 * from each type's owner (`api.requestSchema`): the `POST /v1/tasks` body schema, and the schemas
 * `/v1/openapi.json` shows. A type without a request schema is accepted as any object under its
 * API name (underscored, as CTS spells types) or its label, and its fields are then checked by the
 * kernel against its owner's `optionsSchema`, which is what the document shows for it. The task-level
 * fields drivers add (`DriverFactory.taskBlocks`) are checked and documented by their driver's schema.
 */
import type { JsonSchema, Logger } from "../../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../../core/plugin-api/mod.ts";
import { ApiBlocks, type ApiBlockType, apiTypeName, type BlockKind } from "../api-blocks.ts";
import { createAjv } from "../body-validator.ts";
import { anyConditionSchema, anyModuleInputSchema, taskSchemaWith } from "./task.schema.ts";
import { taskCreateRequestSchemaWith } from "./requests.schema.ts";

const anyObject = { type: "object" } as const satisfies JsonSchema;

function blocksSchema(properties: Record<string, JsonSchema>, kind: BlockKind, blocks: ApiBlocks): JsonSchema {
  // Without the registries (an app built without `registeredBlocks`), the kernel checks the types.
  if (blocks === ApiBlocks.none) return kind === "condition" ? anyConditionSchema : anyModuleInputSchema;
  // CTS: a task has exactly one condition; module inputs are optional.
  return kind === "condition"
    ? { type: "object", additionalProperties: false, minProperties: 1, maxProperties: 1, properties }
    : { type: "object", additionalProperties: false, properties };
}

/** Whether `POST /v1/tasks` may check a type with its request schema. */
export type RequestSchemaCheck = (kind: BlockKind, type: ApiBlockType) => boolean;

/** Whether `POST /v1/tasks` may check a driver's task-level field with its schema. */
export type DriverFieldCheck = (field: string, schema: JsonSchema) => boolean;

/** Whether `schema` compiles; a fresh ajv, as one with an `$id` is compiled again inside the whole request schema. */
function compiles(schema: JsonSchema): string | undefined {
  try {
    createAjv().compile(schema as Record<string, unknown>);
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

/**
 * Compiles each type's request schema on its own: one that does not compile (its plugin's bug) is
 * reported and left out, so its type is accepted as any object and checked by the kernel, and the
 * other types keep working (the kernel treats a broken `optionsSchema` per type too).
 */
export function compilingRequestSchemas(logger: Logger): RequestSchemaCheck {
  return (kind, type) => {
    const schema = type.api?.requestSchema;
    if (schema === undefined) return true;
    const error = compiles(schema);
    if (error !== undefined) logger.error("ignoring the invalid API request schema of a plugin's block", { [kind]: type.name, error });
    return error === undefined;
  };
}

/** As `compilingRequestSchemas`, for drivers' task-level fields: a broken one is accepted as any value and left to the kernel. */
export function compilingDriverFields(logger: Logger): DriverFieldCheck {
  return (field, schema) => {
    const error = compiles(schema);
    if (error !== undefined) logger.error("ignoring the invalid schema of a driver's task field", { field, error });
    return error === undefined;
  };
}

/** The task-level fields drivers add, each by its driver's schema (any value when `usable` refuses it). */
export function driverFieldsSchema(blocks: ApiBlocks, usable: DriverFieldCheck = () => true): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [field, schema] of blocks.driverTaskFields()) out[field] = usable(field, schema) ? schema : {};
  return out;
}

/** The `condition` or `module_input` object as `POST /v1/tasks` checks it. */
export function requestBlocksSchema(
  blocks: ApiBlocks, kind: BlockKind, usable: RequestSchemaCheck = () => true,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const type of blocks.types(kind)) {
    properties[apiTypeName(type.name)] ??= (usable(kind, type) ? type.api?.requestSchema : undefined) ?? anyObject;
  }
  // The label spelling (`catalog-services`) is accepted too; the kernel checks its fields.
  for (const type of blocks.types(kind)) properties[type.name] ??= anyObject;
  return blocksSchema(properties, kind, blocks);
}

/** The `condition` or `module_input` object as `/v1/openapi.json` describes it. */
export function documentedBlocksSchema(blocks: ApiBlocks, kind: BlockKind): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const type of blocks.types(kind)) {
    properties[apiTypeName(type.name)] ??= type.api?.requestSchema ?? type.optionsSchema ?? anyObject;
  }
  return blocksSchema(properties, kind, blocks);
}

/** The request schema of `POST /v1/tasks` accepting every registered type. */
export function taskCreateSchemaFor(
  blocks: ApiBlocks, usable?: RequestSchemaCheck, usableField?: DriverFieldCheck,
): JsonSchema {
  return taskCreateRequestSchemaWith(taskSchemaWith(
    requestBlocksSchema(blocks, "condition", usable),
    requestBlocksSchema(blocks, "module_input", usable),
    driverFieldsSchema(blocks, usableField),
  ));
}
