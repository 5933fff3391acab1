#!/usr/bin/env node
/**
 * @module Entry point for `deno run -A main.ts` and `npx cts-runtime` (built to dist/main.js): the
 * composition root that hands the CLI the commands and dev servers core does not know by name.
 */
import { runCli } from "./core/cli/run-cli.ts";
import { createProcessIo, exitProcess, processArgs } from "./core/runtime/process-io.ts";
import { consulDevCommands } from "./dev-servers/consul/cli.ts";
import { tfcDevCommands } from "./dev-servers/tfc/cli.ts";
import { vaultDevCommands } from "./dev-servers/vault/cli.ts";

const code = await runCli(processArgs(), createProcessIo(), {
  commands: [...consulDevCommands, ...tfcDevCommands, ...vaultDevCommands],
  devEnvironment: async () => (await import("./dev-servers/dev-environment.ts")).devEnvironment,
});
await exitProcess(code);
