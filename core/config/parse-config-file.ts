/** @module Parses one config file by extension: `.hcl` with HashiCorp's HCL parser (WASM), `.json` as JSON. */
import { parse as parseHcl } from "@cdktf/hcl2json";
import { MAX_NESTING, tooDeep } from "../plugin-api/mod.ts";
import type { ConfigIssue } from "./config-error.ts";
import { quotedKeyBlocksToMaps } from "./hcl1-quoted-keys.ts";
import { blankAttributes, redefinedAttributes } from "./hcl1-redefined-attributes.ts";
import { isPlainObject } from "./shape-blocks.ts";

export type ParsedFile =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly issue: ConfigIssue };

/** True for the extensions CTS reads; every other file in a config dir is skipped. */
export function isConfigFileName(path: string): boolean {
  return /\.(hcl|json)$/.test(path);
}

export async function parseConfigText(file: string, text: string): Promise<ParsedFile> {
  const fail = (message: string): ParsedFile => ({ ok: false, issue: { file, path: "", message } });
  const deep = tooDeep(text, !file.endsWith(".json"));
  if (deep) {
    return fail(`invalid ${file.endsWith(".json") ? "JSON" : "HCL"}: line ${deep.line},${deep.column}: nested more than ${MAX_NESTING} levels deep`);
  }
  if (file.endsWith(".json")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return fail(`invalid JSON: ${(error as Error).message}`);
    }
    return isPlainObject(value) ? { ok: true, value } : fail("invalid JSON: the top level must be an object");
  }
  // CTS reads HCL 1: on failure, rewrite what HCL 1 accepted and HCL 2 rejects, and parse again
  // (maps written as blocks with quoted keys; an attribute set twice, the later one winning).
  let candidate = text;
  let firstError: unknown;
  let lastError: unknown;
  let shifted = false;
  for (let round = 0; round < 10; round++) {
    try {
      return { ok: true, value: await parseHcl(file, candidate) as Record<string, unknown> };
    } catch (error) {
      firstError ??= error;
      lastError = error;
      const quoted = quotedKeyBlocksToMaps(candidate);
      const next = quoted !== candidate
        ? quoted
        : blankAttributes(candidate, redefinedAttributes(error instanceof Error ? error.message : String(error), file));
      if (next === candidate) break;
      shifted ||= quoted !== candidate;
      candidate = next;
    }
  }
  // Blanking keeps every position, so the last error points into the file as written; a block
  // rewritten as a map moves columns, so then the error of the file as written is reported.
  return fail(`invalid HCL: ${hclMessage(shifted ? firstError : lastError, file)}`);
}

/** hcl2json wraps diagnostics as `parse config: [<file>:<line>,<col>-<col>: <summary>; <detail>]`. */
function hclMessage(error: unknown, file: string): string {
  const raw = error instanceof Error ? error.message : String(error);
  const inner = raw.replace(/^parse config: \[/, "").replace(/\]$/, "");
  const message = inner.split(`${file}:`).filter((part) => part !== "").map((part) => `line ${part.trim()}`).join("; ");
  // HCL 1 (CTS) accepted quoted keys in block form; HCL 2 needs a map attribute for them.
  return /Argument names must not be quoted/.test(message)
    ? `${message} (write maps with quoted keys as attributes: task_env = { "KEY" = "value" })`
    : message;
}
