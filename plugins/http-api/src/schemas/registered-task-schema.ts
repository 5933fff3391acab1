/**
 * @module The `POST /v1/tasks` body schema for the conditions and module inputs this daemon has
 * registered: CTS's built-in types keep CTS's API schemas (and their API quirks), every other
 * registered type is accepted under its API name (underscored, as CTS spells types) or its label,
 * and its fields are then checked by the kernel against the schema of the plugin that owns it.
 */
import type { JsonSchema } from "../../../../core/plugin-api/mod.ts";
import { conditionSchema, moduleInputSchema, taskSchema } from "./task.schema.ts";
import { taskCreateRequestSchema } from "./requests.schema.ts";
import { apiTypeName } from "../task-representation.ts";

/** The labels plugins registered (`condition "<label>"`, `module_input "<label>"`). */
export interface RegisteredBlocks {
  readonly conditions: readonly string[];
  readonly moduleInputs: readonly string[];
}

/** API spelling → block label, for every registered type (the label maps to itself). */
export function labelsOf(registered: RegisteredBlocks): Readonly<Record<string, string>> {
  const labels: Record<string, string> = {};
  for (const label of [...registered.conditions, ...registered.moduleInputs]) {
    labels[label] = label;
    labels[apiTypeName(label)] ??= label;
  }
  return labels;
}

function withRegistered(base: JsonSchema, labels: readonly string[]): JsonSchema {
  const properties = { ...(base.properties as Record<string, JsonSchema>) };
  for (const label of labels) {
    for (const key of new Set([apiTypeName(label), label])) properties[key] ??= { type: "object" };
  }
  return { ...base, properties };
}

/** The request schema of `POST /v1/tasks` accepting every registered type. */
export function taskCreateSchemaFor(registered: RegisteredBlocks): JsonSchema {
  const taskProperties = taskSchema.properties as Record<string, JsonSchema>;
  const task: JsonSchema = {
    ...taskSchema,
    properties: {
      ...taskProperties,
      condition: withRegistered(conditionSchema, registered.conditions),
      module_input: withRegistered(moduleInputSchema, registered.moduleInputs),
    },
  };
  return { ...taskCreateRequestSchema, properties: { task } };
}
