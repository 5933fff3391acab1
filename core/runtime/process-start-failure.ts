/**
 * @module A process that could not be started at all (no descriptors, no memory, no process slot, no
 * shell or working directory) becomes one clear error naming the cause, never a crash: Node reports
 * such a failure on the child's `error` event, which kills the daemon when nobody listens to it.
 */
import { CtsError } from "../plugin-api/mod.ts";

/** What each errno means for the operator, and what to do about it. */
const CAUSES: Readonly<Record<string, string>> = {
  EMFILE: "the daemon has run out of file descriptors (EMFILE); raise its open-file limit (ulimit -n) or lower its load",
  ENFILE: "the system's file table is full (ENFILE)",
  ENOMEM: "there is not enough memory to start it (ENOMEM)",
  EAGAIN: "the user's process limit is reached (EAGAIN); raise ulimit -u or lower the load",
  EACCES: "permission denied (EACCES)",
};

export function processStartFailure(command: string, cwd: string | undefined, error: unknown): CtsError {
  const code = (error as { code?: unknown } | undefined)?.code;
  const cause = typeof code === "string" && CAUSES[code] !== undefined
    ? CAUSES[code]
    : code === "ENOENT"
    ? `the shell /bin/sh${cwd ? ` or the working directory ${cwd}` : ""} does not exist (ENOENT)`
    : error instanceof Error ? error.message : String(error);
  return new CtsError("CTS_ERR_PROCESS", `Cannot start ${command}: ${cause}`, { cause: error });
}
