/**
 * Conformance: Terraform's built-in `consul` backend (the Go consul/api client: KV, txn, sessions,
 * api.Lock with the 64-bit lock flag) keeps its state and locks in the dev server.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";

const STATE_PATH = "cts-test/terraform";
let server: TestConsulDevServer;
const dirs: string[] = [];

interface Run {
  readonly code: number;
  readonly output: string;
}

function terraform(cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile("terraform", args, {
      cwd,
      timeout: 120_000,
      env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" },
    }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

async function ok(cwd: string, args: string[]): Promise<string> {
  const run = await terraform(cwd, args);
  if (run.code !== 0) throw new Error(`terraform ${args.join(" ")} failed:\n${run.output}`);
  return run.output;
}

/** A root module with only built-ins; `sleep` keeps the apply (and so the lock) busy. */
function workdir(sleepSeconds: number, trigger: string): string {
  const dir = mkdtempSync(join(tmpdir(), "tf-consul-"));
  dirs.push(dir);
  writeFileSync(join(dir, "main.tf"), `
terraform {
  backend "consul" {
    address = "${server.address}"
    path    = "${STATE_PATH}"
    gzip    = true
  }
}
resource "terraform_data" "step" {
  input = "${trigger}"
  provisioner "local-exec" {
    command = "sleep ${sleepSeconds}"
  }
}
output "step" {
  value = terraform_data.step.output
}
`);
  return dir;
}

async function waitForLockHolder(): Promise<void> {
  const key = `${STATE_PATH}/.lock`;
  while (!server.state.kv.get(key)?.session) {
    await new Promise<void>((resolve) => {
      void server.state.hub.wait([`kv:${key}`], 1000).then(resolve);
    });
  }
}

beforeAll(async () => {
  server = await startConsulDevServer();
});

afterAll(async () => {
  await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("terraform consul backend against the dev server", () => {
  it("inits, applies, locks against a concurrent apply, and handles workspaces", { timeout: 240_000 }, async () => {
    // Long enough that the refused apply surely starts while the lock is held, even on a busy machine.
    const first = workdir(8, "one");
    const second = workdir(0, "two");
    const third = workdir(0, "three");
    await Promise.all([first, second, third].map((dir) => ok(dir, ["init", "-input=false", "-no-color"])));

    const slow = terraform(first, ["apply", "-auto-approve", "-input=false", "-no-color"]);
    await waitForLockHolder();
    // The lock is held with the Go client's 64-bit flag, stored exactly.
    expect(server.state.kv.get(`${STATE_PATH}/.lock`)!.flags.digits).toBe("3304740253564472344");
    const waiting = terraform(third, ["apply", "-auto-approve", "-input=false", "-no-color", "-lock-timeout=90s"]);
    const refused = await terraform(second, ["apply", "-auto-approve", "-input=false", "-no-color", "-lock-timeout=0s"]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/Error acquiring the state lock/);
    const [slowRun, waitedRun] = await Promise.all([slow, waiting]);
    expect(slowRun.code, slowRun.output).toBe(0);
    expect(waitedRun.code, waitedRun.output).toBe(0);

    // The state is intact and reflects the last apply; the lock is gone.
    const output = await ok(third, ["output", "-raw", "-no-color", "step"]);
    expect(output.trim().split("\n")[0]).toBe("three");
    expect(await ok(first, ["state", "list", "-no-color"])).toMatch(/terraform_data\.step/);
    expect(server.state.kv.get(`${STATE_PATH}/.lock`)?.session ?? "").toBe("");
    // (Terraform's sessions may outlive the process: they expire after TTL×2, as on real Consul.)

    // Workspaces: stored as <path>-env:<name>.
    await ok(second, ["workspace", "new", "-no-color", "staging"]);
    await ok(second, ["apply", "-auto-approve", "-input=false", "-no-color"]);
    expect(server.state.kv.get(`${STATE_PATH}-env:staging`)).toBeDefined();
    const list = await ok(first, ["workspace", "list", "-no-color"]);
    expect(list).toMatch(/default/);
    expect(list).toMatch(/staging/);
    await ok(first, ["workspace", "select", "-no-color", "staging"]);
    expect((await ok(first, ["output", "-raw", "-no-color", "step"])).trim().split("\n")[0]).toBe("two");
  });

  it("stores a state larger than the 512 KiB txn limit in chunks and reads it back", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "tf-consul-big-"));
    dirs.push(dir);
    writeFileSync(join(dir, "main.tf"), `
terraform {
  backend "consul" {
    address = "${server.address}"
    path    = "cts-test/big"
  }
}
resource "terraform_data" "big" {
  input = format("%0400000d", 7)
}
output "size" {
  value = length(terraform_data.big.output)
}
`);
    await ok(dir, ["init", "-input=false", "-no-color"]);
    await ok(dir, ["apply", "-auto-approve", "-input=false", "-no-color"]);
    const head = server.state.kv.get("cts-test/big")!;
    const pointer = JSON.parse(atob(head.value!)) as { "current-hash": string; chunks: string[] };
    expect(pointer.chunks.length).toBeGreaterThan(1);
    for (const chunk of pointer.chunks) expect(server.state.kv.get(chunk)).toBeDefined();
    expect((await ok(dir, ["output", "-raw", "-no-color", "size"])).trim().split("\n")[0]).toBe("400000");
  });
});
