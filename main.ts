#!/usr/bin/env node
/**
 * @module Entry point for `deno run -A main.ts` and `npx cts-runtime` (built to dist/main.js).
 */
import { runCli } from "./core/cli/run-cli.ts";
import { createProcessIo, exitProcess, processArgs } from "./core/runtime/process-io.ts";

const code = await runCli(processArgs(), createProcessIo());
await exitProcess(code);
