/**
 * @module Starts the real CLI daemon (`deno run -A main.ts start`, which loads the .ts recording
 * driver fixture as a config `plugin` block) against the embedded Consul, on a free port, and
 * runs further CLI commands against it.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../../../harness/free-port.ts";
import { repoRoot, runCli, spawnCli, type CliResult } from "../../../../harness/run-cli.ts";

export interface RecordLine {
  readonly op: string;
  readonly task: string;
  readonly ok: boolean;
  readonly input?: { services?: Record<string, { name: string }> };
}

export interface ApiDaemon {
  readonly dir: string;
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the daemon printed so far. */
  output(): string;
  /** Lines the recording driver wrote. */
  records(): RecordLine[];
  cli(args: string[], options?: { input?: string; env?: Record<string, string> }): Promise<CliResult>;
  stop(): Promise<number | null>;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, tries = 300): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** `extraHcl` is appended to the config (tls blocks, ...); `scheme` is how clients reach it. */
export async function startApiDaemon(options: {
  consulAddress: string;
  extraHcl?: string;
  scheme?: "http" | "https";
  clientEnv?: Record<string, string>;
}): Promise<ApiDaemon> {
  const dir = mkdtempSync(path.join(tmpdir(), "cts-e2e-api-"));
  const port = await freePort();
  const recordFile = path.join(dir, "records.jsonl");
  const fixture = path.join(repoRoot, "harness", "driver-recording", "mod.ts");
  writeFileSync(path.join(dir, "cts.hcl"), [
    `port = ${port}`,
    `id = "cts-e2e-api"`,
    `log_level = "DEBUG"`,
    `consul {`,
    `  address = "${options.consulAddress}"`,
    `  service_registration {`,
    `    default_check {`,
    `      address = "${options.scheme ?? "http"}://127.0.0.1:${port}"`,
    `    }`,
    `  }`,
    `}`,
    `driver "recording" {}`,
    `plugin "recording" {`,
    `  source = "${fixture}"`,
    `  options = {`,
    `    log_file = "${recordFile}"`,
    `  }`,
    `}`,
    options.extraHcl ?? "",
  ].join("\n"));
  const child = spawnCli("deno", ["start", "-config-file=cts.hcl"], { cwd: dir });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const url = `${options.scheme ?? "http"}://127.0.0.1:${port}`;
  const clientEnv = { CTS_ADDRESS: url, ...options.clientEnv };
  await until(`the daemon to listen on ${port}\n${output}`, () => (output.includes("kernel: started") ? true : undefined), 600);
  return {
    dir,
    url,
    process: child,
    output: () => output,
    records: () =>
      existsSync(recordFile)
        ? readFileSync(recordFile, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as RecordLine)
        : [],
    cli: (args, cliOptions = {}) =>
      runCli("deno", args, {
        cwd: dir,
        env: { ...clientEnv, ...cliOptions.env },
        ...(cliOptions.input !== undefined ? { input: cliOptions.input } : {}),
      }),
    async stop() {
      child.kill("SIGTERM");
      const code = await exited;
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
