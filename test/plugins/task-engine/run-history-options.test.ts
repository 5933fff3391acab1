/**
 * The run history's retention options (beyond CTS), `plugin "task-engine" { options = { run_history
 * = {...} } }`: defaults, and bad values rejected by `validate` with the file, the field and what
 * is expected (the real CLI process).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runRetentionOf } from "../../../plugins/task-engine/src/run-history-options.ts";
import { runCli } from "../../../harness/run-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "cts-run-history-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(options: string): string {
  const file = join(dir, `cts-${Math.random().toString(36).slice(2)}.hcl`);
  writeFileSync(file, `consul {
  address = "127.0.0.1:1"
}
plugin "task-engine" {
  source  = "builtin:task-engine"
  options = { run_history = ${options} }
}
task {
  name   = "web"
  module = "./m"
  condition "services" {
    names = ["web"]
  }
}
`);
  return file;
}

describe("run_history options", () => {
  it("defaults to 100 records a task and a week", () => {
    expect(runRetentionOf(undefined)).toEqual({ maxRunsPerTask: 100, maxAgeMs: 168 * 3600_000 });
    expect(runRetentionOf({ max_runs_per_task: 5, max_age: "90m", max_output_bytes: 65536 })).toEqual({ maxRunsPerTask: 5, maxAgeMs: 90 * 60_000 });
  });

  it("validate accepts good values and names the field and the expectation for bad ones", async () => {
    const good = await runCli("node", ["validate", `-config-file=${config(`{ max_runs_per_task = 500, max_age = "24h" }`)}`]);
    expect(good.code, good.stderr + good.stdout).toBe(0);

    const bad = await runCli("node", ["validate", `-config-file=${config(`{ max_runs_per_task = 0, max_age = "a week", extra = 1 }`)}`]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/run_history\.max_runs_per_task: must be >= 1/);
    expect(bad.stderr).toMatch(/run_history\.max_age: must match format "go-duration"/);
    expect(bad.stderr).toMatch(/run_history.*extra/);

    const zero = await runCli("node", ["validate", `-config-file=${config(`{ max_age = "0s" }`)}`]);
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toContain(`Cannot use run_history.max_age "0s": expected a positive duration such as "168h"`);
  }, 120_000); // three CLI processes on a busy machine
});
