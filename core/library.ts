/**
 * @module What the `cts-runtime` package exports to code (its `bin` is the CLI): a kernel booted
 * in-process, the log sink and file system it needs, and the kernel's decoding of a condition or
 * module_input block. @cts-runtime/plugin-testkit builds on this entry, so a plugin's tests run
 * the very kernel (and hand factories the very options) the installed daemon does.
 */
export { createKernel } from "./kernel/kernel.ts";
export type { Kernel, KernelOptions, KernelState } from "./kernel/kernel.ts";
export { builtinPlugins } from "./kernel/builtin-plugins.ts";
export type { BuiltinPlugin } from "./kernel/builtin-plugins.ts";
export { createLogSink } from "./logging/log-sink.ts";
export type { LogSink, LogSinkOptions } from "./logging/log-sink.ts";
export { createFileSystem, createTempDirectory } from "./runtime/file-system.ts";
export { decodeInputBlock } from "./kernel/decode-input-block.ts";
