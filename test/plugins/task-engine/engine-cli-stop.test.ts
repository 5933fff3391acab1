/**
 * A stop while `-once` waits for a task's first Consul data, through the real CLI process
 * (`deno run -A main.ts start -once`) with the recording driver logging its calls to a file:
 * the signal ends the wait, and no run starts on data that never arrived.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, spawnCli } from "../../../harness/run-cli.ts";
import type { RecordEntry } from "../../../harness/driver-recording/mod.ts";
import { waitFor } from "../../../harness/task-engine/engine-harness.ts";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cts-engine-stop-"));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Nothing listens on port 1: every Consul query is refused, which the engine rides out and waits on. */
function writeConfig(name: string): { config: string; log: string } {
  const log = join(dir, `${name}.jsonl`);
  const config = join(dir, `${name}.hcl`);
  writeFileSync(config, `
working_dir = "${join(dir, name)}"
consul { address = "127.0.0.1:1" }
driver "recording" {}
plugin "driver-recording" {
  source  = "${join(repoRoot, "harness/driver-recording/mod.ts")}"
  options { log_file = "${log}" }
}
plugin "task-engine" {
  source  = "builtin:task-engine"
  options = { one_shot_consul_wait = "5m" }
}
task {
  name   = "waiting"
  module = "./mod"
  condition "services" { names = ["web"] }
}
task {
  name   = "after"
  module = "./mod"
  condition "schedule" { cron = "0 0 1 1 *" }
}
`);
  return { config, log };
}

function calls(log: string): RecordEntry[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as RecordEntry);
}

describe("a stop while -once waits for Consul data", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} starts no run and exits 0 with CTS's graceful shutdown`, async () => {
      const { config, log } = writeConfig(signal.toLowerCase());
      const child = spawnCli("deno", ["start", "-once", `-config-file=${config}`], { cwd: dir });
      let output = "";
      child.stdout!.on("data", (chunk) => (output += chunk));
      child.stderr!.on("data", (chunk) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
      try {
        await waitFor(() => output.includes("cannot reach Consul, retrying"), "the once-pass waiting for Consul", 60_000);
        child.kill(signal);
        // CTS pins: a signal cancels the once controller; it returns and CTS exits 0 ("graceful shutdown").
        expect(await exited, output).toBe(0);
      } finally {
        child.kill("SIGKILL");
      }
      // The workspace may be initialised before the data arrives (CTS creates the task first); nothing else.
      expect(calls(log).map((entry) => `${entry.op} ${entry.task}`), output).toEqual(["init waiting"]);
      expect(output).toContain("stopped before the task ran: task_name=waiting");
      // CTS logs "running task once" when the task starts waiting; no run may start ("executing task").
      expect(output).not.toMatch(/executing task|error running task|task completed|all tasks completed once/);
    }, 90_000);
  }
});
