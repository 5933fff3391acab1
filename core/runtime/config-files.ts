/**
 * @module Read-only file access for the CLI and the config loader, which run before any kernel
 * (and so before the plugin-facing FileSystem service) exists.
 */
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";

export type PathKind = "file" | "dir" | "other" | "missing";

export async function pathKind(path: string): Promise<PathKind> {
  try {
    const info = await stat(path);
    return info.isFile() ? "file" : info.isDirectory() ? "dir" : "other";
  } catch {
    return "missing";
  }
}

export async function readTextFile(path: string): Promise<string> {
  return await readFile(path, "utf8");
}

/** Regular files of `dir` (symlinks to files included), sorted by name as Go's ReadDir sorts them. */
export async function listRegularFiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const files: string[] = [];
  for (const name of names) {
    const full = join(dir, name);
    if ((await pathKind(full)) === "file") files.push(full);
  }
  return files;
}

/**
 * Files under `dir`, subdirectories included, sorted, as Go's filepath.Walk visits them (which CTS
 * uses for a TLS `ca_path`): symlinks to files count, symlinked directories are not entered.
 */
export async function listFilesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  const names = (await readdir(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const full = join(dir, name);
    if ((await lstat(full)).isDirectory()) files.push(...await listFilesUnder(full));
    else if ((await pathKind(full)) === "file") files.push(full);
  }
  return files;
}

export function resolvePath(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

export function parentDir(path: string): string {
  return dirname(path);
}

/** The local path of a `file:` URL (schemas are found next to the code that loads them). */
export { fileURLToPath as pathOfFileUrl } from "node:url";
