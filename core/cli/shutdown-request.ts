/** @module The `Shutdown` service the CLI gives the kernel: the first exit request wins. */
import type { Shutdown } from "../plugin-api/mod.ts";

export interface ShutdownRequest extends Shutdown {
  /** Resolves with the first requested exit. */
  readonly requested: Promise<{ code: number; reason: string }>;
}

export function createShutdownRequest(): ShutdownRequest {
  let resolve!: (value: { code: number; reason: string }) => void;
  const requested = new Promise<{ code: number; reason: string }>((r) => (resolve = r));
  let done = false;
  let exitCode: number | undefined;
  return {
    requested,
    requestExit(code, reason) {
      if (done) return;
      done = true;
      exitCode = code;
      resolve({ code, reason });
    },
    requestedExitCode: () => exitCode,
  };
}
