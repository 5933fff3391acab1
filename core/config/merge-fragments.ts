/**
 * @module Merges shaped config files in order, as CTS merges: later scalars overwrite, nested objects
 * merge key by key, and repeatable top-level blocks (tasks, providers, plugins) are appended. Remembers
 * which file set every field, so later validation can name the file of any path.
 */
import { APPENDED_BLOCKS } from "./block-specs.ts";
import { childPath } from "./field-path.ts";
import { isPlainObject } from "./shape-blocks.ts";

type Json = Record<string, unknown>;

export interface MergedConfig {
  readonly value: Json;
  /** CTS-style path → file that last set it. */
  readonly owners: ReadonlyMap<string, string>;
}

export function mergeFragments(fragments: readonly { file: string; value: Json }[]): MergedConfig {
  const value: Json = {};
  const owners = new Map<string, string>();
  for (const fragment of fragments) {
    for (const [key, item] of Object.entries(fragment.value)) {
      if (APPENDED_BLOCKS.includes(key) && Array.isArray(item)) {
        const list = (Array.isArray(value[key]) ? value[key] : []) as unknown[];
        for (const entry of item) {
          own(owners, childPath(key, list.length), entry, fragment.file);
          list.push(entry);
        }
        value[key] = list;
      } else {
        value[key] = mergeValue(value[key], item, key, owners, fragment.file);
      }
    }
  }
  return { value, owners };
}

function mergeValue(base: unknown, next: unknown, path: string, owners: Map<string, string>, file: string): unknown {
  if (isPlainObject(base) && isPlainObject(next)) {
    const out: Json = { ...base };
    owners.set(path, file);
    for (const [key, item] of Object.entries(next)) {
      out[key] = mergeValue(base[key], item, childPath(path, key), owners, file);
    }
    return out;
  }
  own(owners, path, next, file);
  return next;
}

/** Records `file` for `path` and everything below it. */
function own(owners: Map<string, string>, path: string, value: unknown, file: string): void {
  owners.set(path, file);
  if (Array.isArray(value)) value.forEach((item, index) => own(owners, childPath(path, index), item, file));
  else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) own(owners, childPath(path, key), item, file);
  }
}

/** The file that set `path`, or the nearest ancestor that has one. */
export function ownerOf(owners: ReadonlyMap<string, string>, path: string): string | undefined {
  let current = path;
  while (current !== "") {
    const file = owners.get(current);
    if (file !== undefined) return file;
    current = current.replace(/(\[\d+\]|\.[^.[\]]+|^[^.[\]]+)$/, "");
  }
  return undefined;
}
