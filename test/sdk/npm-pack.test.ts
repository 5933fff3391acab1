/**
 * The installable SDK as a third-party author gets it: `npm pack` of cts-runtime,
 * @cts-runtime/plugin-api, @cts-runtime/plugin-testkit and the example echo driver, installed from
 * the tarballs into a fresh project outside the repository (test/fixtures/sdk-consumer: a driver
 * and a condition in TypeScript, a plain tsconfig). There the plugins type-check with no special
 * compiler flag, the testkit's conformance suites pass on the driver and the condition (the
 * project's own vitest, installed as the testkit's peer), and the installed `cts-runtime start -once` loads
 * them with `plugin` blocks on Node (compiled) and on Deno (the TypeScript sources as written), and
 * a daemon on Node creates a task with the third-party condition through `POST /v1/tasks` and runs it.
 * Uses the built dist/ folders (`npm run build`, the first step of `npm test`).
 * CTS behaviour pinned: `start -once` runs every task once and exits 0 (CTS's -once flag); the
 * plugin packages themselves are beyond CTS (its plugins are compiled into the Go binary).
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";

const root = resolve(import.meta.dirname, "../..");
const packages = [".", "core/plugin-api", "core/plugin-testkit", "examples/cts-driver-echo"];
const tsc = join(root, "node_modules/.bin/tsc");
const deno = join(root, "node_modules/.bin/deno");

interface Run {
  readonly code: number;
  readonly output: string;
}

/** Runs a command to completion; npm's own `npm_*` variables (set when `npm test` runs us) are dropped. */
function run(file: string, args: readonly string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return new Promise((done) => {
    const options = { cwd, env: { ...env, NO_COLOR: "1", ...extraEnv }, timeout: 120_000, maxBuffer: 16 << 20 };
    execFile(file, args, options, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      done({ code, output: `${stdout}${stderr}` });
    });
  });
}

async function ok(file: string, args: readonly string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<string> {
  const result = await run(file, args, cwd, extraEnv);
  if (result.code !== 0) throw new Error(`${file} ${args.join(" ")} failed (${result.code}):\n${result.output}`);
  return result.output;
}

/** Each step spawns tsc, vitest, npm or the daemon; on a busy 2-core machine that can take a while. */
const STEP_TIMEOUT = 120_000;

let consul: TestConsulDevServer;
let dir: string;
let app: string;

beforeAll(async () => {
  for (const built of ["dist/core/library.js", "core/plugin-api/dist/mod.js", "core/plugin-testkit/dist/mod.js"]) {
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run "npm run build" first`);
  }
  consul = await startConsulDevServer();
  await fetch(`${consul.url}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify({ Name: "web", ID: "web-1", Port: 80 }) });
  await fetch(`${consul.url}/v1/kv/flag`, { method: "PUT", body: "on" });

  dir = await mkdtemp(join(tmpdir(), "cts-sdk-"));
  app = join(dir, "app");
  await cp(join(root, "test/fixtures/sdk-consumer"), app, { recursive: true });
  await writeFile(join(app, "package.json"), JSON.stringify({ name: "sdk-consumer", private: true, type: "module" }));
  await mkdir(join(dir, "packs"));
  // --ignore-scripts: the prepack scripts would rebuild dist/ under the other suites' feet (globalSetup built it).
  await ok("npm", ["pack", ...packages.map((p) => join(root, p)), "--pack-destination", join(dir, "packs"), "--ignore-scripts", "--silent"], root);
  const tarballs = ["cts-runtime-0.1.0.tgz", "cts-runtime-plugin-api-1.0.0.tgz", "cts-runtime-plugin-testkit-1.0.0.tgz", "example-cts-driver-echo-0.1.0.tgz"];
  // The testkit's peers (vitest) come along; the registry is asked only for what the cache lacks.
  await ok("npm", ["install", ...tarballs.map((t) => join(dir, "packs", t)), "--prefer-offline", "--no-audit", "--no-fund"], app);
}, 240_000);

afterAll(async () => {
  await consul?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the SDK installed from npm tarballs", () => {
  it("exports built JavaScript and .d.ts only", async () => {
    for (const name of ["@cts-runtime/plugin-api", "@cts-runtime/plugin-testkit", "cts-runtime"]) {
      const manifest = JSON.parse(await readFile(join(app, "node_modules", name, "package.json"), "utf8"));
      const entry = manifest.exports["."];
      expect(entry, name).toEqual({ types: expect.stringMatching(/\.d\.ts$/), default: expect.stringMatching(/\.js$/) });
      expect(existsSync(join(app, "node_modules", name, entry.types)), `${name} ${entry.types}`).toBe(true);
    }
  }, STEP_TIMEOUT);

  it("type-checks a TypeScript driver and condition with a plain tsconfig (strict, NodeNext, no special flags)", async () => {
    const tsconfig = JSON.parse(await readFile(join(app, "tsconfig.json"), "utf8"));
    expect(Object.keys(tsconfig.compilerOptions).sort()).toEqual(["module", "outDir", "rootDir", "strict", "target"]);
    const result = await run(tsc, ["-p", app], app);
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
    expect(existsSync(join(app, "dist/src/driver.js"))).toBe(true);
  }, STEP_TIMEOUT);

  it("imports from plain JavaScript", async () => {
    const script = `import * as api from "@cts-runtime/plugin-api"; import * as kit from "@cts-runtime/plugin-testkit";
      import echo from "@example/cts-driver-echo";
      console.log(typeof api.definePlugin, typeof kit.describeDriverConformance, echo.$$type);`;
    expect((await ok(process.execPath, ["--input-type=module", "-e", script], app)).trim())
      .toBe("function function @cts-runtime/plugin");
  }, STEP_TIMEOUT);

  it("passes the testkit's driver and condition conformance suites, run by the project's own vitest", async () => {
    const output = await ok(join(app, "node_modules/.bin/vitest"), ["run"], app, { CONSUL_HTTP_ADDR: consul.address });
    expect(output).toContain("driver.conformance.spec.ts (6 tests)");
    // The fifth: the fixture's template assigns the variable it renders.
    expect(output).toContain("condition.conformance.spec.ts (5 tests)");
    expect(output).toMatch(/Tests\s+11 passed \(11\)/);
  }, STEP_TIMEOUT);
});

describe("the installed cts-runtime start -once loads the plugins from plugin blocks", () => {
  const config = (sources: { driver: string; condition: string }) => `
consul {
  address = "${consul.address}"
}
driver "file" {}
plugin "file" {
  source  = "${sources.driver}"
  options = { fileName = "state.json" }
}
plugin "kv-flag" {
  source = "${sources.condition}"
}
task {
  name   = "web-file"
  module = "./module"
  condition "services" {
    names = ["web"]
  }
}
task {
  name   = "flag-file"
  module = "./module"
  condition "kv-flag" {
    path = "flag"
  }
}
`;
  const state = async (workDir: string, task: string) =>
    JSON.parse(await readFile(join(app, workDir, task, "state.json"), "utf8")) as Record<string, unknown>;

  async function expectBothTasksRan(workDir: string) {
    const web = await state(workDir, "web-file");
    expect(Object.keys(web.services as object)).toEqual([`web-1.${consul.node}.${consul.datacenter}`]);
    expect(await state(workDir, "flag-file")).toEqual({ services: {}, consul_kv: { flag: "on" } });
  }

  it("on Node: the compiled driver and condition", async () => {
    await writeFile(join(app, "node.hcl"), `working_dir = "node-tasks"\n${config({ driver: "./dist/src/driver.js", condition: "./dist/src/condition.js" })}`);
    const result = await run(join(app, "node_modules/.bin/cts-runtime"), ["start", "-once", "-config-file=node.hcl"], app);
    expect(result.output).toContain("all tasks completed once");
    expect(result.code).toBe(0);
    await expectBothTasksRan("node-tasks");
  }, STEP_TIMEOUT);

  it("on Node: the example driver by its package name", async () => {
    await writeFile(join(app, "echo.hcl"), `working_dir = "echo-tasks"
consul {
  address = "${consul.address}"
}
driver "echo" {}
plugin "echo" {
  source = "@example/cts-driver-echo"
}
task {
  name   = "web-echo"
  module = "./module"
  condition "services" {
    names = ["web"]
  }
}
`);
    const result = await run(join(app, "node_modules/.bin/cts-runtime"), ["start", "-once", "-config-file=echo.hcl"], app);
    expect(result.code, result.output).toBe(0);
    const inputs = JSON.parse(await readFile(join(app, "echo-tasks/web-echo/inputs.json"), "utf8"));
    expect(Object.keys(inputs.services)).toEqual([`web-1.${consul.node}.${consul.datacenter}`]);
  }, STEP_TIMEOUT);

  it("on Deno: the TypeScript sources as written, through the installed package", async () => {
    const checked = await run(deno, ["check", "-q", "src/driver.ts", "src/condition.ts"], app);
    expect(checked.output).toBe("");
    expect(checked.code).toBe(0);
    await writeFile(join(app, "deno.hcl"), `working_dir = "deno-tasks"\n${config({ driver: "./src/driver.ts", condition: "./src/condition.ts" })}`);
    const result = await run(deno, ["run", "-A", "-q", "node_modules/cts-runtime/dist/main.js", "start", "-once", "-config-file=deno.hcl"], app);
    expect(result.output).toContain("all tasks completed once");
    expect(result.code).toBe(0);
    await expectBothTasksRan("deno-tasks");
  }, STEP_TIMEOUT);
});

describe("the installed daemon takes a task with the third-party condition through the API", () => {
  // CTS behaviour pinned: POST /v1/tasks?run=now answers 201 with the task once it ran; conditions
  // are keyed by their type in the task object (CTS spells types with underscores: kv_flag).
  it("on Node: POST /v1/tasks creates and runs it; an unknown field is refused with its path", async () => {
    const port = await freePort();
    await writeFile(join(app, "api.hcl"), `working_dir = "api-tasks"
port = ${port}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
driver "file" {}
plugin "file" {
  source  = "./dist/src/driver.js"
  options = { fileName = "state.json" }
}
plugin "kv-flag" {
  source = "./dist/src/condition.js"
}
`);
    const daemon = spawn(join(app, "node_modules/.bin/cts-runtime"), ["start", "-config-file=api.hcl"], {
      cwd: app, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    daemon.stdout!.on("data", (chunk) => (output += chunk));
    daemon.stderr!.on("data", (chunk) => (output += chunk));
    const exited = new Promise((done) => daemon.on("close", done));
    try {
      const url = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 600 && !output.includes("kernel: started"); i++) await new Promise((done) => setTimeout(done, 100));
      expect(output).toContain("kernel: started");
      const post = (condition: unknown) => fetch(`${url}/v1/tasks?run=now`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ task: { name: "api-flag", module: "./module", condition } }),
      });
      const refused = await post({ kv_flag: { path: "flag", colour: "red" } });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain(`task.condition.kv-flag.colour: unknown field \\"colour\\"`);
      const created = await post({ kv_flag: { path: "flag" } });
      expect(created.status, await created.clone().text()).toBe(201);
      expect(((await created.json()) as { task: { condition: unknown } }).task.condition).toEqual({ kv_flag: { path: "flag" } });
      expect(JSON.parse(await readFile(join(app, "api-tasks/api-flag/state.json"), "utf8"))).toEqual({ services: {}, consul_kv: { flag: "on" } });
    } finally {
      daemon.kill("SIGTERM");
      await exited;
    }
  }, STEP_TIMEOUT);
});
