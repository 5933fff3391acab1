/**
 * @module What a running command gets besides its flags (the contract's `CliCommandContext`): the
 * CLI's streams, the file system at its working directory and a shutdown signal hooked on demand.
 */
import type { CliCommandContext, CliIo } from "../plugin-api/mod.ts";
import { createFileSystem } from "../runtime/file-system.ts";
import { shutdownAbortSignal } from "../runtime/signals.ts";

export function commandContext(io: CliIo): CliCommandContext {
  let shutdown: AbortSignal | undefined;
  return {
    ...io,
    files: createFileSystem(io.cwd),
    // Hooked at the first call: `start` handles the signals its own way and never asks.
    shutdownSignal: () => (shutdown ??= shutdownAbortSignal()),
  };
}
