/**
 * @module Runs the real CLI as a child process, under Node (the built dist/main.js, what
 * `npx cts-runtime` runs) or Deno (`deno run -A main.ts` from the source tree).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export type Runtime = "node" | "deno";

export const repoRoot = path.resolve(import.meta.dirname, "..");
const distMain = path.join(repoRoot, "dist", "main.js");
const denoBin = path.join(repoRoot, "node_modules", ".bin", "deno");

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly input?: string;
  readonly timeoutMs?: number;
}

/** The command line that starts the CLI on `runtime`. */
export function cliCommand(runtime: Runtime, args: readonly string[]): { file: string; args: string[] } {
  if (runtime === "node") {
    if (!existsSync(distMain)) throw new Error(`${distMain} is missing: run "npm run build" first`);
    return { file: process.execPath, args: [distMain, ...args] };
  }
  return { file: denoBin, args: ["run", "-A", "-q", path.join(repoRoot, "main.ts"), ...args] };
}

/** Starts the CLI and leaves it running (daemons); the caller kills it. */
export function spawnCli(runtime: Runtime, args: readonly string[], options: CliOptions = {}): ChildProcess {
  const command = cliCommand(runtime, args);
  return spawn(command.file, command.args, {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Runs the CLI to completion and collects its output. */
export function runCli(runtime: Runtime, args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(runtime, args, options);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`cts-runtime ${args.join(" ")} on ${runtime} did not exit in time\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin!.end(options.input ?? "");
  });
}
