/**
 * A command contributed from outside core through the contract's command extension point
 * (`CliCommandContribution`) is listed by help after core's commands and runs through the real
 * CLI process (Deno, from the source tree), with the flags, exit codes and file access core's own get.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repoRoot } from "../../../harness/run-cli.ts";

const deno = path.join(repoRoot, "node_modules", ".bin", "deno");
const entry = path.join(repoRoot, "test", "fixtures", "cli-contribution", "main.ts");
let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "cts-cli-contribution-"));
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(deno, ["run", "-A", "-q", entry, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

it("help lists the contributed commands after core's, in the order given", async () => {
  const { code, stdout } = await cli("--help");
  expect(code).toBe(0);
  const names = [...stdout.matchAll(/^ {4}(\S+(?: (?:create|enable|disable|delete|update))?) {2,}/gm)].map((match) => match[1]);
  expect(names).toEqual([
    "start", "validate", "version", "dev", "status",
    "task create", "task enable", "task disable", "task delete", "task update",
    "consul-dev", "hello",
  ]);
  expect(stdout).toMatch(/^ {4}hello +Greets \(a command contributed from outside core\)$/m);
});

it("runs with its flags parsed by the CLI and writes through the context's file system", async () => {
  const { code, stdout } = await cli("hello", "-name=Ada", "-out", "greeting.txt");
  expect({ code, stdout }).toEqual({ code: 0, stdout: "Hello, Ada!\n" });
  expect(await readFile(path.join(cwd, "greeting.txt"), "utf8")).toBe("Hello, Ada!\n");
});

it("gets the CLI's help and flag errors, and its own exit code", async () => {
  const help = await cli("hello", "--help");
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("Usage: cts-runtime hello [options]");
  expect(help.stdout).toContain("  -name=<name> [Default: world]");
  const unknown = await cli("hello", "-bogus");
  expect(unknown.code).toBe(14);
  expect(unknown.stderr).toContain("Usage: cts-runtime hello [options]");
  const empty = await cli("hello", "-name=");
  expect({ code: empty.code, stderr: empty.stderr }).toEqual({ code: 14, stderr: "==> -name must not be empty\n" });
});
