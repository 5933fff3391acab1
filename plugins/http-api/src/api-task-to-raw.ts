/**
 * @module The API's task object → the config loader's canonical task shape, so that tasks created
 * over HTTP go through exactly the same defaults and validation as tasks in config files.
 *
 * The API spells condition and input types with underscores (`catalog_services`); config blocks
 * use the labels (`condition "catalog-services"`). Each type's owner undoes its API-only
 * spellings (`api.fromRequest`).
 */
import { ApiBlocks } from "./api-blocks.ts";

type Json = Record<string, unknown>;

/** Maps a schema-checked API task to the canonical (label-keyed) raw task of core/config. */
export function apiTaskToRaw(apiTask: Readonly<Json>, blocks: ApiBlocks = ApiBlocks.none): Json {
  const raw: Json = {};
  for (const [key, value] of Object.entries(apiTask)) {
    if (key === "condition" || key === "module_input") raw[key] = blocks.fromRequest(key, value);
    else raw[key] = value;
  }
  return raw;
}
