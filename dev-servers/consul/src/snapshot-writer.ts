/**
 * @module Writes the snapshot file after changes (debounced, never two writes at once) and once more
 * at stop. A write that fails (a full disk) keeps the changes pending and is retried every second;
 * while it fails the server refuses writes (`failure`), so no further write is acknowledged that
 * cannot be kept, and the owner is told once when it starts failing and once when it recovers.
 */
import { errorMessage, type FileSystem } from "../../../core/plugin-api/mod.ts";

export type SnapshotFiles = Pick<FileSystem, "readText" | "writeText" | "exists">;

/** What the owner hears about the snapshot file (the CLI prints it). */
export type SnapshotNotice = (level: "ERROR" | "INFO", message: string) => void;

const RETRY_MS = 1000;

export class SnapshotWriter {
  readonly #files: SnapshotFiles;
  readonly #path: string;
  readonly #encode: () => string;
  readonly #debounceMs: number;
  readonly #notice: SnapshotNotice;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;
  /** When the file last held every change (ms), to say what is at risk while it cannot be written. */
  #savedAt = Date.now();
  #failure: { readonly error: unknown; readonly since: number } | undefined;
  #stopped = false;

  constructor(files: SnapshotFiles, path: string, encode: () => string, debounceMs: number, notice: SnapshotNotice = () => {}) {
    this.#files = files;
    this.#path = path;
    this.#encode = encode;
    this.#debounceMs = debounceMs;
    this.#notice = notice;
  }

  /** Why the file cannot be written now, or undefined while it can. */
  get failure(): string | undefined {
    return this.#failure ? `the snapshot ${this.#path} cannot be written: ${errorMessage(this.#failure.error)}` : undefined;
  }

  /** Last write failure, kept for the owner to report. */
  get lastError(): unknown {
    return this.#failure?.error;
  }

  changed(): void {
    this.#dirty = true;
    // An infinite debounce means "only at stop" (flush()).
    if (this.#timer === undefined && Number.isFinite(this.#debounceMs)) this.#schedule(this.#debounceMs);
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
        this.#dirty = true;
        this.#failed(error);
        return;
      }
      this.#savedAt = Date.now();
      if (this.#failure) {
        this.#failure = undefined;
        this.#notice("INFO", `snapshot ${this.#path} written again: accepting writes`);
      }
    });
    return this.#writing;
  }

  /** No more retries (the server stopped). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #failed(error: unknown): void {
    if (!this.#failure) {
      this.#failure = { error, since: Date.now() };
      this.#notice("ERROR", `cannot write snapshot ${this.#path}: ${errorMessage(error)}; refusing writes until it can be written ` +
        `(retried every ${RETRY_MS / 1000}s); changes since ${new Date(this.#savedAt).toISOString()} are not on disk yet`);
    }
    if (!this.#stopped) this.#schedule(RETRY_MS);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, ms);
  }
}
