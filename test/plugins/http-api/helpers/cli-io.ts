/** @module An in-memory `CliIo` for running CLI commands in-process. */
import type { CliIo } from "../../../../core/runtime/cli-io.ts";

export interface BufferIo extends CliIo {
  readonly stdout: string[];
  readonly stderr: string[];
  readonly prompts: string[];
}

export function bufferIo(answers: string[] = [], env: Record<string, string> = {}, cwd = process.cwd()): BufferIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const prompts: string[] = [];
  return {
    stdout, stderr, prompts, env, cwd,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    readLine: async (prompt) => {
      prompts.push(prompt);
      return answers.shift();
    },
  };
}
