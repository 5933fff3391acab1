/** @module Lets a plugin end the process (once/inspect finished, fatal error) without touching runtime APIs. */

export interface Shutdown {
  /** Asks the CLI to stop the kernel and exit with `code` (first request wins). */
  requestExit(code: number, reason: string): void;
  /**
   * The exit code requested so far, if any: lets a stop hook tell a failed start from a graceful
   * stop (CTS leaves its Consul registration in place when its first run of the tasks fails).
   */
  requestedExitCode?(): number | undefined;
}
