/** @module Writes the snapshot file after changes (debounced, never two writes at once) and once more at stop. */
import type { FileSystem } from "../../../plugin-api/mod.ts";

export type SnapshotFiles = Pick<FileSystem, "readText" | "writeText" | "exists">;

export class SnapshotWriter {
  readonly #files: SnapshotFiles;
  readonly #path: string;
  readonly #encode: () => string;
  readonly #debounceMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;
  /** Last write failure, kept for the owner to report (a dev server keeps serving regardless). */
  lastError: unknown;

  constructor(files: SnapshotFiles, path: string, encode: () => string, debounceMs: number) {
    this.#files = files;
    this.#path = path;
    this.#encode = encode;
    this.#debounceMs = debounceMs;
  }

  changed(): void {
    this.#dirty = true;
    // An infinite debounce means "only at stop" (flush()).
    if (this.#timer === undefined && Number.isFinite(this.#debounceMs)) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.flush();
      }, this.#debounceMs);
    }
  }

  /** Writes now if anything changed since the last write. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writing = this.#writing.then(async () => {
      if (!this.#dirty) return;
      this.#dirty = false;
      try {
        await this.#files.writeText(this.#path, this.#encode());
      } catch (error) {
        this.lastError = error;
      }
    });
    return this.#writing;
  }
}
