#!/usr/bin/env node
// @ts-check
/**
 * Runs `npm run build` when a source file is newer than the last build, so nothing runs a stale
 * dist/: the integration tier's vitest globalSetup (tests spawn dist/main.js, what `npx cts-runtime`
 * runs, and install the SDK tarballs built from the dist/ folders) and `npm start` call it. The build
 * writes dist/.build-stamp when it succeeds, stamped with the time it started, so an edit made while
 * it ran still counts as newer. Usage: `node scripts/build-if-stale.mjs`.
 */
import { $, fs, glob, path } from "zx";
import { fileURLToPath } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const stamp = path.join(root, "dist", ".build-stamp");
/** What the build compiles or reads (the package manifests carry versions the CLI prints). */
const SOURCES = [
  "main.ts", "core/**/*.ts", "plugins/**/*.ts", "dev-servers/**/*.ts", "**/tsconfig*.json", "package.json", "core/*/package.json",
];

/** The newest source file and its modification time in ms, or undefined when there is none. */
async function newestSource() {
  const files = await glob(SOURCES, { cwd: root, ignore: ["**/node_modules/**", "**/dist/**", "test/**"] });
  let newest = { file: "", mtimeMs: 0 };
  for (const file of files) {
    const { mtimeMs } = await fs.stat(path.join(root, file));
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

/** Builds when dist/ is missing or older than a source; says why on stderr. Throws when the build fails. */
export async function buildIfStale() {
  const built = await fs.stat(stamp).then((stats) => stats.mtimeMs, () => 0);
  const newest = await newestSource();
  if (built > 0 && newest.mtimeMs <= built) return;
  process.stderr.write(built === 0 ? "building: no build yet\n" : `building: ${newest.file} changed since the last build\n`);
  const started = new Date();
  const result = await $({ cwd: root, nothrow: true, quiet: true })`npm run --silent build`;
  if (result.exitCode !== 0) throw new Error(`Cannot build cts-runtime (npm run build exited ${result.exitCode}):\n${result.stdout}${result.stderr}`);
  await fs.writeFile(stamp, `${started.toISOString()}\n`);
  await fs.utimes(stamp, started, started);
}

/** vitest globalSetup entry. */
export async function setup() {
  await buildIfStale();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    await buildIfStale();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
