/** @module Parses one config file by extension: `.hcl` with HashiCorp's HCL parser (WASM), `.json` as JSON. */
import { parse as parseHcl } from "@cdktf/hcl2json";
import type { ConfigIssue } from "./config-error.ts";
import { quotedKeyBlocksToMaps } from "./hcl1-quoted-keys.ts";
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
  if (file.endsWith(".json")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return fail(`invalid JSON: ${(error as Error).message}`);
    }
    return isPlainObject(value) ? { ok: true, value } : fail("invalid JSON: the top level must be an object");
  }
  try {
    return { ok: true, value: await parseHcl(file, text) as Record<string, unknown> };
  } catch (error) {
    // CTS reads HCL 1, where a map may be a block with quoted keys; retry with those as attributes.
    const rewritten = quotedKeyBlocksToMaps(text);
    if (rewritten !== text) {
      try {
        return { ok: true, value: await parseHcl(file, rewritten) as Record<string, unknown> };
      } catch {
        // The rewrite did not help: report the error of the file as written.
      }
    }
    return fail(`invalid HCL: ${hclMessage(error, file)}`);
  }
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
