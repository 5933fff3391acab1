/**
 * @module Which tier a test file runs in, from what it imports: `unit` (no process, no server: the
 * fast inner loop, `npm run test:unit`) or `integration` (everything else). No list to keep up.
 *
 * A test file is `integration` when it, or a file it imports under test/, harness/,
 * core/plugin-testkit/ or dev-servers/ (followed transitively), imports a module that starts processes or servers:
 * see INTEGRATION_IMPORTS. Other product modules (core/, plugins/) are not followed: the kernel can
 * reach its process runner from anywhere, and a unit test that builds a kernel stays a unit test. The
 * unit tier's setup file (no-processes-or-servers.ts) fails a test that starts one all the same, so
 * a file the imports misjudge is caught when it runs; it then says so in its header with the tag
 * `@integration` (see INTEGRATION_TAG) and a reason.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";

export type Tier = "unit" | "integration";

export interface TierVerdict {
  readonly file: string;
  readonly tier: Tier;
  /** Why a file is `integration`: the import chain that reaches a process or server module, or the tag. */
  readonly reason?: string;
}

/** Imports that start processes or servers: npm and node names, and repository paths (a folder ends in `/`). */
export const INTEGRATION_IMPORTS: readonly string[] = [
  "node:child_process", "child_process", "node:net", "net", "node:http", "http", "node:https", "https",
  "node:http2", "node:tls", "node:dgram", "node:cluster", "@hono/node-server", "puppeteer-core", "zx",
  "main.ts", "core/runtime/process-runner.ts", "core/runtime/process-supervisor.ts", "core/runtime/serve-http.ts",
  // Test helpers whose purpose is a real process: the terraform binary's environment.
  "harness/driver-terraform/terraform-env.ts",
];

/** A test file whose work starts a process or server the imports do not show carries this tag. */
export const INTEGRATION_TAG = /^\s*(?:\/\*\*|\*|\/\/)\s*@integration\b/m;

/** Followed transitively: test code and its shared harness, and the dev servers (tools for tests; their pure parts are unit-testable). */
const FOLLOWED = ["test/", "harness/", "core/plugin-testkit/", "dev-servers/"];
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+|^\s*export\s+\*\s+from\s+)["']([^"']+)["']/gm;
/** The testkit imports its peers by package name; in-tree they are these sources (as in vitest.config.ts). */
const PEERS: Readonly<Record<string, string>> = {
  "@cts-runtime/plugin-api": "core/plugin-api/mod.ts",
  "cts-runtime": "core/library.ts",
};

/** The tier of every `test/**\/*.test.ts` file under `root`, sorted by path. */
export function testTiers(root: string): TierVerdict[] {
  const imports = new Map<string, readonly string[]>();
  const importsOf = (file: string): readonly string[] => {
    let found = imports.get(file);
    if (found === undefined) imports.set(file, found = readImports(root, file));
    return found;
  };
  return testFiles(root).map((file) => {
    if (INTEGRATION_TAG.test(readFileSync(join(root, file), "utf8"))) {
      return { file, tier: "integration", reason: "tagged @integration" };
    }
    const chain = integrationChain(file, importsOf);
    return chain ? { file, tier: "integration", reason: chain.join(" → ") } : { file, tier: "unit" };
  });
}

/** The first import chain from `file` to an integration import, following test-side files only. */
function integrationChain(file: string, importsOf: (file: string) => readonly string[]): string[] | undefined {
  const seen = new Set<string>([file]);
  const queue: string[][] = [[file]];
  while (queue.length > 0) {
    const chain = queue.shift()!;
    for (const target of importsOf(chain.at(-1)!)) {
      if (isIntegrationImport(target)) return [...chain, target];
      if (seen.has(target) || !FOLLOWED.some((prefix) => target.startsWith(prefix))) continue;
      seen.add(target);
      queue.push([...chain, target]);
    }
  }
  return undefined;
}

function isIntegrationImport(target: string): boolean {
  return INTEGRATION_IMPORTS.some((name) => name.endsWith("/") ? target.startsWith(name) : target === name);
}

/** What `file` imports: repository paths for relative imports and the testkit's peers, else the bare name. */
function readImports(root: string, file: string): readonly string[] {
  let text: string;
  try {
    text = readFileSync(join(root, file), "utf8");
  } catch {
    return []; // a missing file fails in vitest with a clear message; its tier does not matter
  }
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(SPECIFIER)].map(([, specifier]) => {
    if (specifier!.startsWith(".")) return posix.normalize(posix.join(posix.dirname(file), specifier!));
    return PEERS[specifier!] ?? specifier!;
  });
}

function testFiles(root: string, folder = "test"): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory() && entry.name !== "node_modules") files.push(...testFiles(root, path));
    else if (entry.isFile() && entry.name.endsWith(".test.ts")) files.push(path);
  }
  return files.sort();
}
