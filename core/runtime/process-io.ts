/** @module The process's argv, streams, env and exit, as a `CliIo` (works on Node and Deno via node:process). */
import process from "node:process";
import { createInterface } from "node:readline";
import type { CliIo } from "./cli-io.ts";

export function processArgs(): string[] {
  return process.argv.slice(2);
}

export function createProcessIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    readLine: (prompt) => readLine(prompt),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Writes a log line to stderr (CTS logs to stderr; command output goes to stdout). */
export function writeLogLine(line: string): void {
  process.stderr.write(line + "\n");
}

/** Whether log lines reach a terminal (colour codes are kept only there). */
export function logsToTerminal(): boolean {
  return process.stderr.isTTY === true;
}

function readLine(prompt: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: false });
    let answered = false;
    process.stdout.write(prompt);
    rl.once("line", (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once("close", () => {
      if (!answered) resolve(undefined);
    });
  });
}

/** Flushes stdout/stderr, then exits (stdout may be a pipe that has not drained yet). */
export async function exitProcess(code: number): Promise<never> {
  await Promise.all([drain(process.stdout), drain(process.stderr)]);
  process.exit(code);
}

function drain(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) return resolve();
    stream.write("", () => resolve());
  });
}
