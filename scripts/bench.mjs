#!/usr/bin/env node
// @ts-check
/**
 * Runs benchmarks under bench/ with Deno (TypeScript as-is, no build): `npm run bench -- <name>...`
 * (e.g. `terraform-render`), or every benchmark but the slow ones (HA failover, the HCP Terraform
 * driver at a thousand tasks) when no name is given.
 * Each benchmark prints its own table.
 */
import { $, fs, path } from "zx";

const root = path.resolve(import.meta.dirname, "..");
const all = (await fs.readdir(path.join(root, "bench"))).filter((file) => file.endsWith(".ts")).map((file) => file.slice(0, -3));
const names = process.argv.slice(2);
const SLOW = ["ha-failover", "tfc-driver"];
const chosen = names.length > 0 ? names : all.filter((name) => !SLOW.includes(name));
const deno = path.join(root, "node_modules", ".bin", "deno");

for (const name of chosen) {
  if (!all.includes(name)) throw new Error(`Cannot run benchmark "${name}": bench/${name}.ts does not exist (have: ${all.join(", ")})`);
  console.log(`\n## ${name}\n`);
  await $({ cwd: root, stdio: "inherit" })`${deno} run -A -q ${path.join("bench", `${name}.ts`)}`;
}
