/**
 * A condition block owned by a third-party plugin (test/fixtures/plugins/condition-flag, loaded by a
 * `plugin` block into the real Deno daemon): its fields are described once, by the plugin's schema,
 * and the kernel checks them with the owner's rules (unknown fields, formats, enums, defaults) for
 * config files, -config-dir, tasks created through the API and `task create -task-file` alike.
 * CTS itself has no third-party conditions; what is pinned from CTS is the API's task shape
 * (`condition: { <type>: {...} }`) and the CLI's task create flow.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { repoRoot, runCli } from "../../harness/run-cli.ts";
import { startApiDaemon, until, type ApiDaemon } from "../plugins/http-api/helpers/api-daemon.ts";
import type { FlagCreateLine } from "../fixtures/plugins/condition-flag/mod.ts";

const FLAG_PLUGIN = path.join(repoRoot, "test", "fixtures", "plugins", "condition-flag", "mod.ts");
const RECORDING = path.join(repoRoot, "harness", "driver-recording", "mod.ts");

function flagPluginHcl(logFile?: string): string {
  return [
    `plugin "flag" {`,
    `  source = "${FLAG_PLUGIN}"`,
    ...(logFile ? [`  options = {`, `    log_file = "${logFile}"`, `  }`] : []),
    `}`,
  ].join("\n");
}

function json(method: string, body: unknown): RequestInit {
  return { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

describe("a third-party condition block is checked by the kernel against its owner's schema", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiDaemon;
  let scratch: string;
  let logFile: string;
  const created = (task: string): FlagCreateLine | undefined =>
    existsSync(logFile)
      ? readFileSync(logFile, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as FlagCreateLine)
        .find((line) => line.task === task)
      : undefined;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), "cts-owned-blocks-"));
    logFile = path.join(scratch, "flag.jsonl");
    consul = await startConsulDevServer();
    daemon = await startApiDaemon({
      consulAddress: consul.address,
      extraHcl: [
        flagPluginHcl(logFile),
        `task {`,
        `  name   = "file_flag"`,
        `  module = "./module"`,
        `  condition "flag" {`,
        `    key = "boot"`,
        `  }`,
        `}`,
      ].join("\n"),
    });
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("a task in the config file: the factory receives its block with the owner's defaults applied", async () => {
    const line = await until("the flag condition of file_flag to be created", () => created("file_flag"));
    expect(line.options).toEqual({ type: "flag", key: "boot", colour: "blue" });
  });

  it("POST /v1/tasks: a third-party condition is created like a built-in one; its unknown and malformed fields are rejected with their paths", async () => {
    const bad = await fetch(`${daemon.url}/v1/tasks`, json("POST", {
      task: { name: "api_flag", module: "./module", condition: { flag: { key: "x", size: 3, endpoint: "not a uri" } } },
    }));
    expect(bad.status).toBe(400);
    const message = ((await bad.json()) as { error: { message: string } }).error.message;
    expect(message).toContain(`task.condition.flag.size: unknown field "size" (expected one of: colour, endpoint, key)`);
    expect(message).toContain(`task.condition.flag.endpoint: must match format uri`);

    const good = await fetch(`${daemon.url}/v1/tasks`, json("POST", {
      task: { name: "api_flag", module: "./module", condition: { flag: { key: "x", endpoint: "https://flags.example/x" } } },
    }));
    expect(good.status, await good.clone().text()).toBe(201);
    // The task is completed by its owner (as one from a config file is): the API shows it with the
    // owner's defaults, as CTS shows its own conditions (api/representation), and the factory gets the same.
    const expected = { flag: { key: "x", endpoint: "https://flags.example/x", colour: "blue" } };
    expect(((await good.json()) as { task: { condition: unknown } }).task.condition).toEqual(expected);
    const read = await (await fetch(`${daemon.url}/v1/tasks/api_flag`)).json() as { task: { condition: unknown } };
    expect(read.task.condition).toEqual(expected);
    const line = await until("the flag condition of api_flag to be created", () => created("api_flag"));
    expect(line.options).toEqual({ type: "flag", ...expected.flag });
  });

  it("task create -task-file: a field the owner rejects is named with its path; a valid file creates the task", async () => {
    const write = (name: string, colour: string) => writeFileSync(path.join(daemon.dir, `${name}.hcl`), [
      `task {`,
      `  name   = "${name}"`,
      `  module = "./module"`,
      `  condition "flag" {`,
      `    key    = "y"`,
      `    colour = "${colour}"`,
      `  }`,
      `}`,
    ].join("\n"));
    write("cli_bad", "green");
    const bad = await daemon.cli(["task", "create", "-auto-approve", "-task-file=cli_bad.hcl"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain(`task.condition.flag.colour: must be one of: blue, red, got "green"`);
    write("cli_good", "red");
    const good = await daemon.cli(["task", "create", "-auto-approve", "-task-file=cli_good.hcl"]);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    const line = await until("the flag condition of cli_good to be created", () => created("cli_good"));
    expect(line.options).toEqual({ type: "flag", key: "y", colour: "red" });
  });

  it("-config-file and -config-dir: every problem of the block is reported with its file and field path", async () => {
    const base = [`driver "recording" {}`, `plugin "recording" {`, `  source = "${RECORDING}"`, `}`, flagPluginHcl()].join("\n");
    const task = [
      `task {`, `  name = "t"`, `  module = "./m"`,
      `  condition "flag" {`, `    key = "k"`, `    size = 1`, `    endpoint = "nope"`, `  }`, `}`,
    ].join("\n");
    writeFileSync(path.join(scratch, "one.hcl"), `${base}\n${task}\n`);
    mkdirSync(path.join(scratch, "dir"));
    writeFileSync(path.join(scratch, "dir", "a-base.hcl"), `${base}\n`);
    writeFileSync(path.join(scratch, "dir", "b-task.hcl"), `${task}\n`);
    const [file, dir] = await Promise.all([
      runCli("deno", ["validate", "-config-file=one.hcl"], { cwd: scratch }),
      runCli("deno", ["validate", "-config-dir=dir"], { cwd: scratch }),
    ]);
    for (const [result, where] of [[file, "one.hcl"], [dir, "dir/b-task.hcl"]] as const) {
      expect(result.code, result.stderr).toBe(15);
      expect(result.stderr).toContain(`${where}: task[0].condition.flag.size: unknown field "size" (expected one of: colour, endpoint, key)`);
      expect(result.stderr).toContain(`${where}: task[0].condition.flag.endpoint: must match format uri`);
    }
  });
});
