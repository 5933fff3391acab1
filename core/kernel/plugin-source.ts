/**
 * @module Turns a plugin block's `source` into something `import()` accepts: an npm package name
 * passes through; a path (starting with `.` or `/`) is resolved against the directory of the
 * config file that named it and becomes a `file:` URL; a directory means its package.json entry.
 */
import { CtsError, type FileSystem } from "../plugin-api/mod.ts";
import { detectRuntime } from "../runtime/detect-runtime.ts";
import { fileUrlOf, isAbsolutePath } from "../runtime/file-system.ts";

/** True when `source` names a file or directory rather than an npm package. */
export function isPathSource(source: string): boolean {
  return source.startsWith(".") || source.startsWith("/") || isAbsolutePath(source);
}

export async function importSpecifierFor(source: string, baseDir: string, fs: FileSystem): Promise<string> {
  if (!isPathSource(source)) return source;
  const path = fs.resolve(baseDir, source);
  if (!(await fs.exists(path))) {
    throw new CtsError("CTS_ERR_PLUGIN_LOAD", `Cannot load plugin from "${source}": ${path} does not exist`);
  }
  if (!(await fs.isDirectory(path))) return fileUrlOf(path);
  return fileUrlOf(fs.resolve(path, await packageEntry(path, source, fs)));
}

/** The entry a package directory exports as `.` (by the conditions this runtime honours), else `main`. */
async function packageEntry(dir: string, source: string, fs: FileSystem): Promise<string> {
  const manifestPath = fs.resolve(dir, "package.json");
  let manifest: { exports?: unknown; main?: unknown };
  try {
    manifest = JSON.parse(await fs.readText(manifestPath)) as typeof manifest;
  } catch (error) {
    throw new CtsError("CTS_ERR_PLUGIN_LOAD", `Cannot load plugin from "${source}": cannot read ${manifestPath}`, {
      cause: error,
    });
  }
  const exported = manifest.exports;
  const root = typeof exported === "object" && exported !== null && "." in exported
    ? (exported as Record<string, unknown>)["."]
    : exported;
  const entry = pickCondition(root) ?? (typeof manifest.main === "string" ? manifest.main : undefined);
  if (entry === undefined) {
    throw new CtsError(
      "CTS_ERR_PLUGIN_LOAD",
      `Cannot load plugin from "${source}": ${manifestPath} has neither exports["."] nor main`,
    );
  }
  return entry;
}

/** Walks a conditional export; the first key (in the package's order) this runtime matches wins. */
function pickCondition(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (typeof target !== "object" || target === null || Array.isArray(target)) return undefined;
  const active = detectRuntime() === "deno"
    ? new Set(["deno", "node", "import", "default"])
    : new Set(["node", "import", "default"]);
  for (const [condition, value] of Object.entries(target)) {
    if (!active.has(condition)) continue;
    const picked = pickCondition(value);
    if (picked !== undefined) return picked;
  }
  return undefined;
}
