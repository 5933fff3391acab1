/**
 * @module The FileSystem service over node:fs (Node and Deno both implement it), plus the few
 * path helpers the kernel needs to load plugins by path without touching node:* itself.
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";
import type { FileInfo, FileSystem } from "../plugin-api/mod.ts";

let tempCounter = 0;

/** A file system rooted at `baseDir` (default: the process's working directory) for relative paths. */
export function createFileSystem(baseDir: string = process.cwd()): FileSystem {
  const abs = (path: string): string => resolvePath(baseDir, path);
  return {
    readText: (path) => readFile(abs(path), "utf8"),
    async readBytes(path) {
      const bytes = await readFile(abs(path));
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async stat(path, options) {
      const info = await statOrUndefined(abs(path), options?.followLinks === true ? stat : lstat);
      return info && fileInfo(info);
    },
    readLink: (path) => readlink(abs(path)),
    async writeText(path, content, options) {
      const target = abs(path);
      await mkdir(dirname(target), { recursive: true });
      // Same directory as the target, so rename is atomic (never across devices).
      const temp = `${target}.${process.pid}.${Date.now()}.${tempCounter++}.tmp`;
      try {
        await writeFile(temp, content, options?.mode === undefined ? "utf8" : { encoding: "utf8", mode: options.mode });
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async mkdir(path, options) {
      await mkdir(abs(path), { recursive: true, ...(options?.mode === undefined ? {} : { mode: options.mode }) });
    },
    exists: async (path) => (await statOrUndefined(abs(path))) !== undefined,
    isDirectory: async (path) => (await statOrUndefined(abs(path)))?.isDirectory() ?? false,
    readDir: (path) => readdir(abs(path)),
    remove: (path) => rm(abs(path), { recursive: true, force: true }),
    resolve: (...segments) => resolvePath(baseDir, ...segments),
  };
}

type Stats = Awaited<ReturnType<typeof stat>>;

function fileInfo(info: Stats): FileInfo {
  const kind = info.isSymbolicLink() ? "symlink" : info.isDirectory() ? "directory" : info.isFile() ? "file" : "other";
  return { kind, mode: Number(info.mode) & 0o7777, size: Number(info.size) };
}

async function statOrUndefined(path: string, read: (path: string) => Promise<Stats> = stat): Promise<Stats | undefined> {
  try {
    return await read(path);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT" || (error as { code?: string }).code === "ENOTDIR") {
      return undefined;
    }
    throw error;
  }
}

/** The directory that holds `path`. */
export function parentDirectory(path: string): string {
  return dirname(path);
}

/** True for `/x`, and for `C:\x` on Windows. */
export function isAbsolutePath(path: string): boolean {
  return isAbsolute(path);
}

/** A `file:` URL for an absolute path, escaping `#`, `%` and spaces (what `import()` needs). */
export function fileUrlOf(path: string): string {
  return pathToFileURL(path).href;
}

/** The process's working directory. */
export function currentDirectory(): string {
  return process.cwd();
}

/** A new empty directory under the system temp dir (tests and test kits; the caller removes it). */
export function createTempDirectory(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}
