/**
 * @module The task schemas for the conditions and module inputs this daemon has registered, built
 * from each type's owner (`api.requestSchema`): the `POST /v1/tasks` body schema, and the schemas
 * `/v1/openapi.json` shows. A type without a request schema is accepted as any object under its
 * API name (underscored, as CTS spells types) or its label, and its fields are then checked by the
 * kernel against its owner's `optionsSchema`, which is what the document shows for it.
 */
import type { JsonSchema, Logger } from "../../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../../core/plugin-api/mod.ts";
import { ApiBlocks, type ApiBlockType, apiTypeName, type BlockKind } from "../api-blocks.ts";
import { createAjv } from "../body-validator.ts";
import { anyConditionSchema, anyModuleInputSchema, taskSchemaWith } from "./task.schema.ts";
import { taskCreateRequestSchemaWith } from "./requests.schema.ts";

const anyObject: JsonSchema = { type: "object" };

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

/**
 * Compiles each type's request schema on its own: one that does not compile (its plugin's bug) is
 * reported and left out, so its type is accepted as any object and checked by the kernel, and the
 * other types keep working (the kernel treats a broken `optionsSchema` per type too).
 */
export function compilingRequestSchemas(logger: Logger): RequestSchemaCheck {
  return (kind, type) => {
    const schema = type.api?.requestSchema;
    if (schema === undefined) return true;
    try {
      // A fresh ajv: a schema with an `$id` is compiled again inside the whole request schema.
      createAjv().compile(schema as Record<string, unknown>);
      return true;
    } catch (error) {
      const fields = { [kind]: type.name, error: errorMessage(error) };
      logger.error("ignoring the invalid API request schema of a plugin's block", fields);
      return false;
    }
  };
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
export function taskCreateSchemaFor(blocks: ApiBlocks, usable?: RequestSchemaCheck): JsonSchema {
  return taskCreateRequestSchemaWith(
    taskSchemaWith(requestBlocksSchema(blocks, "condition", usable), requestBlocksSchema(blocks, "module_input", usable)),
  );
}
