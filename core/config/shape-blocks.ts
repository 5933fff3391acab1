/**
 * @module Brings one parsed config file (HCL via hcl2json, or CTS JSON) to the canonical shape the
 * schemas describe: single blocks are objects, repeatable blocks arrays, labelled blocks keyed by label.
 */
import type { ConfigIssue } from "./config-error.ts";
import type { BlockSpec, BodySpec } from "./block-specs.ts";
import { childPath } from "./field-path.ts";

type Json = Record<string, unknown>;

export interface ShapeContext {
  readonly file: string;
  readonly issues: ConfigIssue[];
  /** Index shift of top-level lists, so paths count across all files. */
  readonly offsets: Readonly<Record<string, number>>;
}

export function isPlainObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Shapes the keys of `body` that `spec` knows; other keys are kept as written for the schema to judge. */
export function shapeBody(body: Json, spec: BodySpec, path: string, ctx: ShapeContext): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    const blockSpec = spec[key];
    out[key] = blockSpec === undefined ? value : shapeBlock(value, blockSpec, childPath(path, key), ctx, path === "");
  }
  return out;
}

function shapeBlock(value: unknown, spec: BlockSpec, path: string, ctx: ShapeContext, topLevel: boolean): unknown {
  switch (spec.kind) {
    case "map":
      return Array.isArray(value) && value.every(isPlainObject) && value.length > 0
        ? Object.assign({}, ...value)
        : value;
    case "single": {
      const bodies = asBodies(value);
      if (bodies === undefined) return value;
      if (bodies.length > 1) duplicate(path, ctx);
      return spec.body ? shapeBody(bodies[0] ?? {}, spec.body, path, ctx) : bodies[0] ?? {};
    }
    case "list": {
      const bodies = asBodies(value);
      if (bodies === undefined) return value;
      const offset = topLevel ? ctx.offsets[path] ?? 0 : 0;
      return bodies.map((body, index) =>
        spec.body ? shapeBody(body, spec.body, childPath(path, index + offset), ctx) : body
      );
    }
    case "labelled-single":
    case "labelled-list": {
      const entries = labelledEntries(value);
      if (entries === undefined) return value;
      const bodyOf = (label: string, body: Json, at: string): Json => {
        if (spec.kind === "labelled-single" && spec.owned === true) return unwrapSingleBodies(body) as Json;
        const bodySpec = spec.body?.(label);
        return bodySpec ? shapeBody(body, bodySpec, at, ctx) : body;
      };
      if (spec.kind === "labelled-list") {
        const offset = topLevel ? ctx.offsets[path] ?? 0 : 0;
        return entries.map(([label, body], index) => ({
          [label]: bodyOf(label, body, childPath(childPath(path, index + offset), label)),
        }));
      }
      const out: Json = {};
      for (const [label, body] of entries) {
        if (entries.length > 1) {
          duplicate(path, ctx);
          break;
        }
        out[label] = bodyOf(label, body, childPath(path, label));
      }
      return out;
    }
  }
}

/** `value` with every one-element list of objects replaced by its object, at any depth. */
function unwrapSingleBodies(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.length === 1 && isPlainObject(value[0]) ? unwrapSingleBodies(value[0]) : value.map(unwrapSingleBodies);
  }
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unwrapSingleBodies(item)]));
}

/** A block written as an object or as an array of objects; `undefined` if it is neither. */
function asBodies(value: unknown): Json[] | undefined {
  if (isPlainObject(value)) return [value];
  if (Array.isArray(value) && value.every(isPlainObject)) return value;
  return undefined;
}

/**
 * Labelled blocks in every spelling: `{label: body}`, `{label: [body, ...]}` (hcl2json) and
 * `[{label: body}, ...]` (CTS JSON). `undefined` when the value has none of these shapes.
 */
function labelledEntries(value: unknown): [string, Json][] | undefined {
  const groups = isPlainObject(value) ? [value] : Array.isArray(value) && value.every(isPlainObject) ? value : undefined;
  if (groups === undefined) return undefined;
  const entries: [string, Json][] = [];
  for (const group of groups) {
    for (const [label, body] of Object.entries(group)) {
      const bodies = asBodies(body);
      if (bodies === undefined) return undefined;
      for (const one of bodies) entries.push([label, one]);
    }
  }
  return entries;
}

function duplicate(path: string, ctx: ShapeContext): void {
  const name = path.replace(/\[\d+\]/g, "").split(".").pop() ?? path;
  ctx.issues.push({ file: ctx.file, path, message: `only one "${name}" block can be configured` });
}
