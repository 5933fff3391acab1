/**
 * The engine's modes through the real CLI process (`deno run -A main.ts start ...`), with the
 * recording driver loaded by path from the config and logging its calls to a JSON-lines file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { repoRoot, runCli } from "../../../harness/run-cli.ts";
import type { RecordEntry } from "../../../harness/driver-recording/mod.ts";
import { registerInstance } from "../../../harness/task-engine/engine-harness.ts";

type DevServer = Awaited<ReturnType<typeof startConsulDevServer>>;
let server: DevServer;
let dir: string;

beforeAll(async () => {
  server = await startConsulDevServer();
  await registerInstance(server.url, "api", "api-1");
  dir = mkdtempSync(join(tmpdir(), "cts-engine-cli-"));
});
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Writes a config for this run and returns its path and the driver's call log path. */
function writeConfig(name: string, options: { failTasks?: string[] } = {}): { config: string; log: string } {
  const log = join(dir, `${name}.jsonl`);
  const config = join(dir, `${name}.hcl`);
  const fail = options.failTasks ? `fail_tasks = ${JSON.stringify(options.failTasks)}` : "";
  writeFileSync(config, `
consul { address = "${server.address}" }
driver "recording" {}
plugin "driver-recording" {
  source = "${join(repoRoot, "harness/driver-recording/mod.ts")}"
  options {
    log_file = "${log}"
    ${fail}
  }
}
task {
  name      = "cli-api"
  module    = "./mod"
  condition "services" { names = ["api"] }
}
task {
  name      = "cli-other"
  module    = "./mod"
  condition "services" { names = ["api"] }
}
`);
  return { config, log };
}

function calls(log: string): RecordEntry[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as RecordEntry);
}

const start = (config: string, ...flags: string[]) =>
  runCli("deno", ["start", ...flags, `-config-file=${config}`], { cwd: dir, timeoutMs: 60_000 });

describe("start through the CLI (deno)", () => {
  it("-once applies every task with its Consul data and exits 0", async () => {
    const { config, log } = writeConfig("once");
    const result = await start(config, "-once");
    expect(result.code).toBe(0);
    const applies = calls(log).filter((entry) => entry.op === "apply");
    expect(applies.map((entry) => entry.task)).toEqual(["cli-api", "cli-other"]);
    expect(Object.keys(applies[0]!.input!.services)).toEqual([expect.stringMatching(/^api-1\./)]);
  });

  it("-once exits 11 when a task fails", async () => {
    const { config, log } = writeConfig("once-fail", { failTasks: ["cli-api"] });
    const result = await start(config, "-once");
    expect(result.code).toBe(11);
    expect(calls(log).filter((entry) => entry.op === "apply").map((entry) => entry.task)).toEqual(["cli-api"]);
  });

  it("-inspect logs each plan as 'inspection results' at INFO, applies nothing, exits 0", async () => {
    const { config, log } = writeConfig("inspect");
    const result = await start(config, "-inspect");
    expect(result.code).toBe(0);
    const lines = `${result.stdout}${result.stderr}`.split("\n").filter((line) => line.includes("inspection results"));
    expect(lines.length).toBe(2);
    expect(lines[0]).toMatch(/\[INFO\] .*inspection results: task_name=cli-api plan="recording plan for cli-api: 1 service instance\(s\)"/);
    expect(calls(log).filter((entry) => entry.op === "apply")).toEqual([]);
  });

  it("-inspect-task plans only that task; an unknown name exits 15", async () => {
    const { config, log } = writeConfig("inspect-task");
    expect((await start(config, "-inspect-task=cli-other")).code).toBe(0);
    expect(calls(log).filter((entry) => entry.op === "plan").map((entry) => entry.task)).toEqual(["cli-other"]);
    const unknown = await start(config, "-inspect-task=nope");
    expect(unknown.code).toBe(15);
    expect(unknown.stderr).toContain("nope");
  });
});
