/**
 * plugins/condition-nodes as a third party publishes it: `npm pack` of its folder (its own
 * package.json, built to JavaScript by `npm run build`), installed with the cts-runtime and
 * @cts-runtime/plugin-api tarballs into a project outside the repository, loaded by the installed
 * `cts-runtime start -once` with `plugin "nodes" { source = "@example/cts-condition-nodes" }` (the
 * package replaces the built-in of the same id), and run with the real terraform against the
 * embedded Consul. Beyond CTS, whose plugins are compiled into its binary.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const root = resolve(import.meta.dirname, "../..");
const PACKAGE = "@example/cts-condition-nodes";

interface Run {
  readonly code: number;
  readonly output: string;
}

/** Runs a command to completion; npm's own `npm_*` variables (set when `npm test` runs us) are dropped. */
function run(file: string, args: readonly string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return new Promise((done) => {
    execFile(file, args, { cwd, env: { ...env, NO_COLOR: "1", ...extraEnv }, timeout: 120_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

async function ok(file: string, args: readonly string[], cwd: string): Promise<string> {
  const result = await run(file, args, cwd);
  if (result.code !== 0) throw new Error(`${file} ${args.join(" ")} failed (${result.code}):\n${result.output}`);
  return result.output;
}

/** Every file under `dir`, relative. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) out.push(...await filesUnder(join(dir, entry.name), `${path}/`));
    else out.push(path);
  }
  return out.sort();
}

let consul: TestConsulDevServer;
let dir: string;
let app: string;

beforeAll(async () => {
  for (const built of ["dist/core/library.js", "core/plugin-api/dist/mod.js", "plugins/condition-nodes/dist/mod.js"]) {
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run "npm run build" first`);
  }
  consul = await startConsulDevServer();
  await fetch(`${consul.url}/v1/catalog/register`, {
    method: "PUT", body: JSON.stringify({ Node: "rack-7", Address: "10.7.0.1", NodeMeta: { role: "edge" } }),
  });
  dir = await mkdtemp(join(tmpdir(), "cts-nodes-package-"));
  app = join(dir, "app");
  await mkdir(app, { recursive: true });
  await writeFile(join(app, "package.json"), JSON.stringify({ name: "nodes-consumer", private: true, type: "module" }));
  await cp(join(root, "test/plugins/driver-terraform/modules/nodes"), join(app, "module"), { recursive: true });
  await mkdir(join(dir, "packs"));
  // --ignore-scripts: the root's `prepare` and the plugin's `prepack` would rebuild under the other suites' feet.
  const packages = [".", "core/plugin-api", "plugins/condition-nodes"].map((p) => join(root, p));
  await ok("npm", ["pack", ...packages, "--pack-destination", join(dir, "packs"), "--ignore-scripts", "--silent"], root);
  const tarballs = ["cts-runtime-0.1.0.tgz", "cts-runtime-plugin-api-1.0.0.tgz", "example-cts-condition-nodes-0.1.0.tgz"];
  await ok("npm", ["install", ...tarballs.map((t) => join(dir, "packs", t)), "--prefer-offline", "--no-audit", "--no-fund"], app);
}, 240_000);

afterAll(async () => {
  await consul?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the nodes plugin installed from its npm tarball", () => {
  it("ships built JavaScript and .d.ts that import only the contract", async () => {
    const installed = join(app, "node_modules", PACKAGE);
    const files = await filesUnder(installed);
    expect(files).toContain("dist/mod.js");
    expect(files).toContain("dist/mod.d.ts");
    expect(files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([]);
    const specifiers = new Set<string>();
    for (const file of files.filter((f) => f.endsWith(".js"))) {
      const text = await readFile(join(installed, file), "utf8");
      for (const [, specifier] of text.matchAll(/\bfrom\s+"([^"]+)"/g)) if (!specifier!.startsWith("./")) specifiers.add(specifier!);
    }
    expect([...specifiers]).toEqual(["@cts-runtime/plugin-api"]);
  });

  it("the installed cts-runtime loads it from a plugin block in place of the built-in and runs a nodes task with terraform", async () => {
    await writeFile(join(app, "cts.hcl"), `log_level   = "DEBUG"
working_dir = "tasks"
consul {
  address = "${consul.address}"
}
plugin "nodes" {
  source = "${PACKAGE}"
}
task {
  name      = "edge"
  module    = "./module"
  variables = { output_file = ${JSON.stringify(JSON.stringify(join(app, "nodes.txt")))} }
  condition "nodes" {
    node_meta = { role = "edge" }
  }
}
`);
    const result = await run(join(app, "node_modules/.bin/cts-runtime"), ["start", "-once", "-config-file=cts.hcl"], app, terraformTestEnv());
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/initialized plugin: plugin=condition-nodes kind=condition source=@example\/cts-condition-nodes/);
    expect(await readFile(join(app, "nodes.txt"), "utf8")).toBe(`rack-7 10.7.0.1 ${consul.datacenter} - role=edge\n`);
  }, 120_000);
});
