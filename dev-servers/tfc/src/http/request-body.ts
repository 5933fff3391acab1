/**
 * @module Reading JSON:API request bodies: the `data` resource, typed attribute getters that
 * answer 422 with a JSON pointer when a field has the wrong type, and relationship ids.
 */
import { ApiError, invalidAttribute } from "./api-error.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class Attributes {
  readonly #raw: Json;

  constructor(raw: Json) {
    this.#raw = raw;
  }

  has(name: string): boolean {
    return this.#raw[name] !== undefined;
  }

  /** The raw value (for attributes with a shape of their own). */
  value(name: string): unknown {
    return this.#raw[name];
  }

  string(name: string): string | undefined {
    const value = this.#raw[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") throw invalidAttribute(name, `${name} must be a string`);
    return value;
  }

  requiredString(name: string): string {
    const value = this.string(name);
    if (value === undefined || value === "") throw invalidAttribute(name, `${name} can't be blank`);
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.#raw[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "boolean") throw invalidAttribute(name, `${name} must be true or false`);
    return value;
  }

  integer(name: string): number | undefined {
    const value = this.#raw[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value)) throw invalidAttribute(name, `${name} must be an integer`);
    return value;
  }

  stringArray(name: string): string[] | undefined {
    const value = this.#raw[name];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      throw invalidAttribute(name, `${name} must be a list of strings`);
    }
    return value as string[];
  }
}

export interface RequestResource {
  readonly type: string | undefined;
  readonly id: string | undefined;
  readonly attributes: Attributes;
  readonly relationships: Json;
}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "JSON body is invalid", "The request body is not valid JSON");
  }
}

function toResource(data: Json): RequestResource {
  const attributes = data.attributes ?? {};
  const relationships = data.relationships ?? {};
  if (!isObject(attributes)) throw new ApiError(422, "invalid attribute", "attributes must be an object", "/data/attributes");
  if (!isObject(relationships)) throw new ApiError(422, "invalid attribute", "relationships must be an object", "/data/relationships");
  return {
    type: typeof data.type === "string" ? data.type : undefined,
    id: typeof data.id === "string" && data.id !== "" ? data.id : undefined,
    attributes: new Attributes(attributes),
    relationships,
  };
}

/** The body's `data` object; a missing body reads as empty attributes. */
export async function readResource(request: Request): Promise<RequestResource> {
  const body = await readJson(request);
  if (!isObject(body)) throw new ApiError(400, "bad request", "The request body must be a JSON object");
  const data = body.data ?? {};
  if (!isObject(data)) throw new ApiError(422, "invalid attribute", "data must be an object", "/data");
  return toResource(data);
}

/** The body's `data` array (relationship bodies such as tags). */
export async function readResourceList(request: Request): Promise<RequestResource[]> {
  const body = await readJson(request);
  const data = isObject(body) ? body.data : undefined;
  if (!Array.isArray(data) || !data.every(isObject)) {
    throw new ApiError(422, "invalid attribute", "data must be a list of resources", "/data");
  }
  return data.map(toResource);
}

/** The id of a to-one relationship (`relationships.<name>.data.id`), if given. */
export function relationshipId(relationships: Json, name: string): string | undefined {
  const relationship = relationships[name];
  if (!isObject(relationship)) return undefined;
  const data = relationship.data;
  if (!isObject(data)) return undefined;
  return typeof data.id === "string" && data.id !== "" ? data.id : undefined;
}

/** The resources of a to-many relationship (`relationships.<name>.data[]`). */
export function relationshipList(relationships: Json, name: string): RequestResource[] {
  const relationship = relationships[name];
  if (!isObject(relationship) || !Array.isArray(relationship.data)) return [];
  return relationship.data.filter(isObject).map(toResource);
}

/** The body of an action (`{"comment": "…"}`), read only to reject malformed JSON. */
export async function readActionBody(request: Request): Promise<void> {
  await readJson(request);
}
