/**
 * @module The condition and module_input types the daemon's plugins registered, as the HTTP API
 * sees them. Each type's owner says how its block looks in the API (`api` on its factory:
 * request schema, request → block, representation); the API itself names no type and no field.
 * The API spells a type with underscores (`catalog-services` → `catalog_services`), as CTS does.
 */
import type { BlockApiFace, JsonSchema } from "../../../core/plugin-api/mod.ts";

type Json = Record<string, unknown>;

/** What the API reads of a registered condition or module-input factory. */
export interface ApiBlockType {
  readonly name: string;
  readonly optionsSchema?: JsonSchema;
  readonly api?: BlockApiFace;
  /** Conditions: true when the type ignores buffer periods (CTS then shows a disabled one). */
  readonly unbuffered?: boolean;
}

/** What the API reads of a registered driver factory: the task-level fields it adds. */
export interface ApiDriverType {
  readonly name: string;
  readonly taskBlocks?: Readonly<Record<string, JsonSchema>>;
}

/** The factories plugins registered, in registration order. */
export interface RegisteredBlocks {
  readonly conditions: readonly ApiBlockType[];
  readonly moduleInputs: readonly ApiBlockType[];
  /** Drivers whose task-level fields (`taskBlocks`) the API accepts and shows. @default none */
  readonly drivers?: readonly ApiDriverType[];
  /** Task blocks other plugins own (`TaskBlockFactory`, e.g. `hooks`): accepted and shown like drivers' fields. @default none */
  readonly taskBlocks?: readonly ApiBlockType[];
}

/** The API's task keys that hold blocks keyed by type. */
export type BlockKind = "condition" | "module_input";

/** `catalog-services` → `catalog_services`: the API's spelling of a condition or input type. */
export function apiTypeName(type: string): string {
  return type.replace(/-/g, "_");
}

export class ApiBlocks {
  /** No registered type: every block is shown and passed on as it is. */
  static readonly none = new ApiBlocks({ conditions: [], moduleInputs: [] });

  /** Task-level field → its schema, from every driver (the first registered, if several declare it). */
  readonly #taskFields = new Map<string, JsonSchema>();

  readonly #types: Readonly<Record<BlockKind, readonly ApiBlockType[]>>;
  /** Per kind: label and API spelling → the registered type. */
  readonly #byKey: Readonly<Record<BlockKind, ReadonlyMap<string, ApiBlockType>>>;

  constructor(registered: RegisteredBlocks) {
    this.#types = { condition: registered.conditions, module_input: registered.moduleInputs };
    const index = (types: readonly ApiBlockType[]) => {
      const byKey = new Map<string, ApiBlockType>(types.map((type) => [type.name, type]));
      for (const type of types) if (!byKey.has(apiTypeName(type.name))) byKey.set(apiTypeName(type.name), type);
      return byKey;
    };
    this.#byKey = { condition: index(registered.conditions), module_input: index(registered.moduleInputs) };
    // As the kernel judges them (core/kernel/driver-task-fields.ts): any registered driver's field is
    // accepted here, and the kernel refuses it when the task's driver does not declare it.
    for (const driver of registered.drivers ?? []) {
      for (const [field, schema] of Object.entries(driver.taskBlocks ?? {})) {
        if (!this.#taskFields.has(field)) this.#taskFields.set(field, schema);
      }
    }
    // A plugin's task block takes its field under every driver (core/kernel/plugin-task-blocks.ts).
    for (const block of registered.taskBlocks ?? []) this.#taskFields.set(block.name, block.optionsSchema ?? {});
  }

  /** The task-level fields drivers and other plugins add (`terraform_cloud_workspace`, `hooks`), each with its schema. */
  driverTaskFields(): ReadonlyMap<string, JsonSchema> {
    return this.#taskFields;
  }

  types(kind: BlockKind): readonly ApiBlockType[] {
    return this.#types[kind];
  }

  /** Whether the condition type ignores buffer periods. */
  unbuffered(conditionType: string): boolean {
    return this.#byKey.condition.get(conditionType)?.unbuffered === true;
  }

  /** The API's `{ <type>: body }` (schema-checked) → the config's `{ <label>: block }`. */
  fromRequest(kind: BlockKind, blocks: unknown): Json {
    const out: Json = {};
    for (const [key, body] of Object.entries((blocks ?? {}) as Json)) {
      const type = this.#byKey[kind].get(key);
      const fields = body as Readonly<Json>;
      out[type?.name ?? key] = type?.api?.fromRequest ? type.api.fromRequest(fields) : { ...fields };
    }
    return out;
  }

  /** A stored block `{type, ...fields}` → `[API spelling, body as GET shows it]`. */
  represent(kind: BlockKind, block: Readonly<{ type: string }>): [string, Json] {
    const face = this.#byKey[kind].get(block.type)?.api;
    if (face?.represent) return [apiTypeName(block.type), face.represent(block as Readonly<Json>)];
    const { type: _type, ...fields } = block as Readonly<Json>;
    return [apiTypeName(block.type), fields];
  }
}
