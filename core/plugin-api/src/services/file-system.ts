/** @module File access for plugins, so they stay runtime-agnostic. */

/** What `stat` tells about one path. */
export interface FileInfo {
  readonly kind: "file" | "directory" | "symlink" | "other";
  /** Permission bits, e.g. 0o755. */
  readonly mode: number;
  /** Bytes (files). */
  readonly size: number;
}

export interface FileSystem {
  readText(path: string): Promise<string>;
  /**
   * The file's exact bytes (binary files, uploads that must keep every byte).
   * Runtimes written before it lack it; callers fall back to `readText` for text.
   */
  readBytes?(path: string): Promise<Uint8Array>;
  /**
   * Kind, permission bits and size of `path`; a symbolic link is reported as
   * `symlink` unless `followLinks`. Undefined when nothing is there.
   */
  stat?(path: string, options?: { followLinks?: boolean }): Promise<FileInfo | undefined>;
  /** The target of a symbolic link, as written in the link. */
  readLink?(path: string): Promise<string>;
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
