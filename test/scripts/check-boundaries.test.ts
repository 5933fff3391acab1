/**
 * scripts/check-boundaries.mjs: a plugin folder is a package that sees only the contract, its own
 * files and npm packages; core never imports a plugin (issue 12 item 4). Beyond CTS: no CTS behaviour.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../..");
const script = join(repo, "scripts/check-boundaries.mjs");
let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function check(root?: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script, ...(root ? [root] : [])], { cwd: repo });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, out: failed.stdout ?? "" };
  }
}

async function tree(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "boundaries-"));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return dir;
}

describe("check-boundaries", () => {
  it("passes on this repository", async () => {
    const result = await check();
    expect(result.out).toContain("no violation");
    expect(result.code).toBe(0);
  });

  it("names the plugin file, line and import that leave the plugin's folder", async () => {
    const root = await tree({
      "core/plugin-api/mod.ts": "export const x = 1;\n",
      "core/config/duration.ts": "export const d = 1;\n",
      "plugins/a/mod.ts": [
        'import { x } from "../../core/plugin-api/mod.ts";',
        'import { y } from "./src/y.ts";',
        'import { Hono } from "hono";',
        'import type { P } from "@cts-runtime/plugin-api";',
        'import { z } from "../b/mod.ts";',
        "export {",
        "  d,",
        '} from "../../core/config/duration.ts";',
        'const k = () => import("cts-runtime");',
        "",
      ].join("\n"),
      "plugins/a/src/y.ts": "export const y = 1;\n",
      "plugins/b/mod.ts": "export const z = 1;\n",
      "core/cli/dev.ts": 'import { z } from "../../plugins/b/mod.ts";\n',
      "core/kernel/builtin-plugins.ts": 'export const load = () => import("../../plugins/b/mod.ts");\n',
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.out.trim().split("\n").sort()).toEqual([
      "core/cli/dev.ts:1: core imports a plugin (../../plugins/b/mod.ts → plugins/b/mod.ts)",
      "plugins/a/mod.ts:5: plugin imports outside its folder and the contract (../b/mod.ts → plugins/b/mod.ts)",
      "plugins/a/mod.ts:8: plugin imports outside its folder and the contract (../../core/config/duration.ts → core/config/duration.ts)",
      "plugins/a/mod.ts:9: plugin imports outside its folder and the contract (cts-runtime → cts-runtime)",
    ]);
  });

  it("keeps the dev servers free of the CLI and plugins, core free of the dev servers, and the runtime free of the CLI (issue 27 item 4)", async () => {
    const root = await tree({
      "core/cli/command.ts": "export const c = 1;\n",
      "core/cli/commands/consul-dev.ts": 'import { serve } from "../../../dev-servers/consul/mod.ts";\n',
      "core/runtime/process-io.ts": 'import type { C } from "../cli/command.ts";\n',
      "core/runtime/cli-io.ts": "export interface CliIo {}\n",
      "dev-servers/consul/mod.ts": 'import { c } from "../../core/cli/command.ts";\nimport { s } from "../../core/runtime/cli-io.ts";\n',
      "dev-servers/tfc/mod.ts": 'import { z } from "../../plugins/b/mod.ts";\n',
      "plugins/b/mod.ts": "export const z = 1;\n",
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.out.trim().split("\n").sort()).toEqual([
      "core/cli/commands/consul-dev.ts:1: core imports a dev server (../../../dev-servers/consul/mod.ts → dev-servers/consul/mod.ts)",
      "core/runtime/process-io.ts:1: runtime imports the CLI (../cli/command.ts → core/cli/command.ts)",
      "dev-servers/consul/mod.ts:1: dev server imports a plugin or the CLI (../../core/cli/command.ts → core/cli/command.ts)",
      "dev-servers/tfc/mod.ts:1: dev server imports a plugin or the CLI (../../plugins/b/mod.ts → plugins/b/mod.ts)",
    ]);
  });
});
