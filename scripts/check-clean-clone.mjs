#!/usr/bin/env node
// @ts-check
/**
 * Tries README.md's commands the way a new user would: a fresh clone of the committed HEAD into a
 * temporary folder, `npm ci` (which runs no build: `npm start` and `npm test` build first), then
 * `npm test` (pass `--quick` to stop after `npm ci` and `npm start -- --help`, which builds and
 * prints the dev command's help). Uncommitted work is not included, which is the point.
 */
import { $, fs, os, path } from "zx";

const root = path.resolve(import.meta.dirname, "..");
const quick = process.argv.includes("--quick");
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cts-runtime-clone-"));
$.verbose = true;
try {
  await $`git clone --quiet ${root} ${dir}`;
  await $({ cwd: dir })`npm ci --no-audit --no-fund`;
  await $({ cwd: dir })`npm start -- --help`;
  if (!quick) await $({ cwd: dir })`npm test`;
  console.log(`clean clone: ok (${dir})`);
} finally {
  if (!process.argv.includes("--keep")) await fs.remove(dir);
}
