/**
 * @module What the `cts-runtime` package exports to code (its `bin` is the CLI): a kernel booted
 * in-process, and the log sink and file system it needs. @cts-runtime/plugin-testkit builds on
 * this entry, so a plugin's tests run the very kernel the installed daemon runs.
 */
export { createKernel } from "./kernel/kernel.ts";
export type { Kernel, KernelOptions, KernelState } from "./kernel/kernel.ts";
export { builtinPlugins } from "./kernel/builtin-plugins.ts";
export type { BuiltinPlugin } from "./kernel/builtin-plugins.ts";
export { createLogSink } from "./logging/log-sink.ts";
export type { LogSink, LogSinkOptions } from "./logging/log-sink.ts";
export { createFileSystem, createTempDirectory } from "./runtime/file-system.ts";
