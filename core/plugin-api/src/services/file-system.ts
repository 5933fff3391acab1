/** @module File access for plugins, so they stay runtime-agnostic. */

export interface FileSystem {
  readText(path: string): Promise<string>;
  /** Writes atomically (temp file + rename) and creates parent folders. */
  writeText(path: string, content: string, options?: { mode?: number }): Promise<void>;
  mkdir(path: string, options?: { mode?: number }): Promise<void>;
  exists(path: string): Promise<boolean>;
  isDirectory(path: string): Promise<boolean>;
  /** Names (not paths) of the entries of a directory. */
  readDir(path: string): Promise<string[]>;
  remove(path: string): Promise<void>;
  /** Resolves `path` against the daemon's working directory. */
  resolve(...segments: string[]): string;
}
