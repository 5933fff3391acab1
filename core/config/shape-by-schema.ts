/**
 * @module Brings a block body a plugin owns, as the config file wrote it, to the shape its owner's
 * JSON Schema describes, reading only the schema (core knows none of the fields). HCL-to-JSON gives
 * every nested block as a list of bodies and a labelled block as `{label: [body]}`; CTS's JSON form
 * may write a block as an object or a one-element list. So, wherever the schema expects an object:
 * - a block (an object schema with `properties`) written as a list of bodies is its one body, and a
 *   second body is a problem (`only one "tls" block can be configured`), in any file format;
 * - a map (an object schema without `properties`) written as a list of objects is their merge, and
 *   when its values are objects (`additionalProperties` is an object schema) they are labelled
 *   blocks, each label's body taken as one block: `backend "consul" {}` → `{backend: {consul: {...}}}`.
 * Scalars are left to weak decoding (weak-decode.ts), types to the schema.
 */
import { childPath } from "./field-path.ts";

type Json = Record<string, unknown>;

/** A shaping problem, its path relative to the shaped body. */
export interface ShapeProblem {
  readonly path: string;
  readonly message: string;
}

/** `value` shaped by `schema` (self-contained: local `#/...` refs only); never throws. */
export function shapeBySchema(value: unknown, schema: Json, problems: ShapeProblem[]): unknown {
  return shape(value, schema, schema, "", problems);
}

/**
 * `labelledIn`: the path of the map this body is a labelled entry of (`backend` for `backend "consul"`),
 * where a label written twice is reported.
 */
function shape(value: unknown, at: Json, root: Json, path: string, problems: ShapeProblem[], labelledIn?: string): unknown {
  const schema = resolve(at, root);
  if (!isObjectSchema(schema)) {
    if (schema.type === "array" && isObject(schema.items) && Array.isArray(value)) {
      return value.map((item, index) => shape(item, schema.items as Json, root, childPath(path, index), problems));
    }
    return value;
  }
  const block = isObject(schema.properties);
  let body = value;
  if (Array.isArray(body) && body.length > 0 && body.every(isObject)) {
    if (block || labelledIn !== undefined) {
      const where = labelledIn ?? path;
      if (body.length > 1) problems.push({ path: where, message: `only one "${lastKey(where)}" block can be configured` });
      body = body[0];
    } else {
      body = Object.assign({}, ...body);
    }
  }
  if (!isObject(body)) return body;
  const properties = (block ? schema.properties : {}) as Json;
  const extra = isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  const out: Json = {};
  for (const [key, item] of Object.entries(body)) {
    const own = isObject(properties[key]) ? properties[key] : undefined;
    const child = own ?? extra;
    // A map's object-typed entries are labelled blocks (`backend "consul" {}`); a block's are its fields.
    const labelled = own === undefined && !block && child !== undefined && isObjectSchema(resolve(child, root));
    out[key] = child === undefined ? item : shape(item, child, root, childPath(path, key), problems, labelled ? path : undefined);
  }
  return out;
}

function isObjectSchema(schema: Json): boolean {
  return schema.type === "object" || (schema.type === undefined && isObject(schema.properties));
}

function resolve(schema: Json, root: Json): Json {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && current.$ref.startsWith("#") && hops < 10; hops++) {
    let target: unknown = root;
    for (const part of current.$ref.slice(1).split("/").filter((one) => one !== "")) target = (target as Json | undefined)?.[part];
    if (!isObject(target)) break;
    current = target;
  }
  return current;
}

function lastKey(path: string): string {
  return path.replace(/\[\d+\]/g, "").split(".").pop() ?? path;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
