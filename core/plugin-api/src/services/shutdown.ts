/** @module Lets a plugin end the process (once/inspect finished, fatal error) without touching runtime APIs. */

export interface Shutdown {
  /** Asks the CLI to stop the kernel and exit with `code` (first request wins). */
  requestExit(code: number, reason: string): void;
}
