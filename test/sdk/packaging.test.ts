/**
 * The three published packages as `npm pack` makes them from a clean checkout: a copy of the
 * repository's files (tracked and new, not ignored: no dist/, no build stamp) with this
 * worktree's node_modules, where `npm pack` runs each package's `prepack`. Each tarball holds what
 * its manifest points to, passes publint (warnings count) and Are the Types Wrong (ESM-only
 * profile: the packages are ES modules for Node 20.19+, bundlers and Deno), and installs without
 * running a script; the runtime's tarball carries the contract once (its compiled copy in dist/).
 * Beyond CTS (a Go binary, no packages).
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const bin = (name: string) => join(root, "node_modules/.bin", name);
/** Each SDK package before the root, so neither relies on what packing another one built. */
const PACKAGES = ["core/plugin-api", "core/plugin-testkit", "."] as const;
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];

interface Packed {
  readonly name: string;
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

/** Runs a command to completion; npm's own `npm_*` variables (set under `npm test`) are dropped. */
function run(file: string, args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; output: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return new Promise((done) => {
    execFile(file, args, { cwd, env: { ...env, NO_COLOR: "1" }, timeout: 240_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, output: `${stdout}${stderr}` });
    });
  });
}

async function ok(file: string, args: readonly string[], cwd: string): Promise<string> {
  const result = await run(file, args, cwd);
  if (result.code !== 0) throw new Error(`${file} ${args.join(" ")} failed (${result.code}):\n${result.output}`);
  return result.stdout;
}

let dir: string;
let packed: readonly Packed[];
const tarball = (name: string) => join(dir, "packs", packed.find((pack) => pack.name === name)!.filename);
const paths = (name: string) => packed.find((pack) => pack.name === name)!.files.map((file) => file.path);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cts-packaging-"));
  const checkout = join(dir, "checkout");
  const listed = await ok("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root);
  for (const file of listed.split("\0").filter(Boolean)) {
    await mkdir(dirname(join(checkout, file)), { recursive: true });
    await cp(join(root, file), join(checkout, file), { force: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error; // a file deleted but not yet committed
    });
  }
  await symlink(join(root, "node_modules"), join(checkout, "node_modules"), "dir");
  await mkdir(join(dir, "packs"));
  const json = await ok("npm", ["pack", ...PACKAGES.map((p) => `./${p}`), "--pack-destination", join(dir, "packs"), "--json"], checkout);
  packed = JSON.parse(json);
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("npm pack from a clean checkout", () => {
  it("builds each package first: its tarball holds the JavaScript and .d.ts its manifest points to", () => {
    expect(paths("@cts-runtime/plugin-api")).toEqual(expect.arrayContaining(["dist/mod.js", "dist/mod.d.ts", "dist/src/define-plugin.js"]));
    expect(paths("@cts-runtime/plugin-testkit")).toEqual(expect.arrayContaining(["dist/mod.js", "dist/mod.d.ts", "dist/src/describe-driver-conformance.js"]));
    expect(paths("cts-runtime")).toEqual(expect.arrayContaining(["dist/main.js", "dist/core/library.js", "dist/core/library.d.ts"]));
  });

  it("puts one copy of the contract in the runtime's tarball (dist/core/plugin-api, what its code imports)", () => {
    const contract = paths("cts-runtime").filter((path) => /(^|\/)define-plugin\.(ts|js)$/.test(path));
    expect(contract).toEqual(["dist/core/plugin-api/src/define-plugin.js"]);
    expect(paths("cts-runtime").filter((path) => path.startsWith("core/"))).toEqual([]);
  });

  it("ships no TypeScript sources, tests or build stamp", () => {
    for (const { name } of packed) {
      expect(paths(name).filter((path) => /(?<!\.d)\.ts$|\.test\.|\.build-stamp$/.test(path)), name).toEqual([]);
    }
  });

  it("runs no script when installed", async () => {
    for (const { name } of packed) {
      const listing = await ok("tar", ["-xOzf", tarball(name), "package/package.json"], dir);
      const scripts = Object.keys(JSON.parse(listing).scripts ?? {});
      expect(scripts.filter((script) => INSTALL_SCRIPTS.includes(script)), name).toEqual([]);
    }
  });

  it("passes publint, warnings included", async () => {
    const results = await Promise.all(packed.map(({ name }) => run(bin("publint"), ["run", tarball(name), "--strict"], dir)));
    packed.forEach(({ name }, index) => {
      expect(results[index]!.output, name).toContain("All good!");
      expect(results[index]!.code, `${name}\n${results[index]!.output}`).toBe(0);
    });
  }, 120_000);

  it("passes Are the Types Wrong for an ES module package: types included, no problem", async () => {
    // What the ESM-only profile leaves out: resolution by CommonJS require and by Node 10.
    const ignored = ["node10", "node16-cjs"];
    const args = (name: string) => [tarball(name), "--profile", "esm-only", "--format", "json"];
    const results = await Promise.all(packed.map(({ name }) => run(bin("attw"), args(name), dir)));
    packed.forEach(({ name }, index) => {
      const result = results[index]!;
      const report = JSON.parse(result.stdout) as {
        analysis: { types: false | { kind: string } };
        problems?: Record<string, { kind: string; entrypoint: string; resolutionKind?: string }[]>;
      };
      expect(report.analysis.types, name).toEqual(expect.objectContaining({ kind: "included" }));
      const problems = Object.values(report.problems ?? {}).flat();
      expect(problems.filter((problem) => !ignored.includes(problem.resolutionKind ?? "")), name).toEqual([]);
      expect(result.code, `${name}\n${result.output}`).toBe(0);
    });
  }, 120_000);
});
