/**
 * @module Benchmark: what issue 24's guards cost on the hot paths they sit on.
 *
 * Run:  npm run bench -- fault-guards     (or: npx deno run -A bench/fault-guards.ts)
 *
 * 1. The descriptor guard (core/runtime/descriptor-guard.ts) is asked on every API request and
 *    before every process start. A count (a listing of /proc/self/fd) is reused for 100 ms (or 50
 *    times what it took) and for half as many calls as descriptors are left above the reserve. The
 *    table gives the cost of one `short()` far from the limit (a reused count, amortised) and of
 *    one count.
 * 2. tfc-dev's `search[wildcard-name]`: the linear matcher against the regular expression it
 *    replaced (`^.*a.*a...b$`), on names of a's that never match; the regex time grows
 *    exponentially with the number of stars and the name's length.
 */
import { closeSync, openSync } from "node:fs";
import { DescriptorGuard, openFileLimit } from "../core/runtime/descriptor-guard.ts";
import { wildcardMatcher } from "../dev-servers/tfc/src/http/wildcard-name.ts";

function perCall(calls: number, work: () => unknown): number {
  const started = performance.now();
  for (let n = 0; n < calls; n++) work();
  return ((performance.now() - started) * 1000) / calls;
}

const limit = openFileLimit() ?? 1024;
console.log(`descriptor guard: one short() call, in µs (soft limit here ${limit})\n`);
console.log("| open descriptors | far from the limit (count reused) | near the limit, one count |");
console.log("| ---: | ---: | ---: |");
const held: number[] = [];
for (const open of [100, 1000, 10_000]) {
  if (open + 50 > limit) break;
  while (held.length < open) held.push(openSync("/dev/null", "r"));
  const far = new DescriptorGuard(open * 100);
  // A fresh guard per call: its first call always counts.
  console.log(`| ${open} | ${perCall(20_000, () => far.short()).toFixed(2)} | ${perCall(50, () => new DescriptorGuard(open + 30).short()).toFixed(1)} |`);
}
for (const fd of held) closeSync(fd);

function oldRegex(pattern: string): RegExp {
  const body = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}$`, "i");
}

console.log("\nwildcard-name search: one match, in ms (name: n a's, no b)\n");
const ms = (calls: number, work: () => unknown) => perCall(calls, work) / 1000;
console.log("| pattern | name length | regex (before) | linear matcher |");
console.log("| --- | ---: | ---: | ---: |");
for (const [pattern, lengths] of [["*a*a*a*a*b", [50, 100, 150]], ["*a*a*a*a*a*a*b", [20, 25, 30]], ["*a*a*a*a*a*a*a*a*b", [90, 10_000]]] as const) {
  for (const length of lengths) {
    const name = "a".repeat(length);
    // The 8-star regex on 90 characters does not end in any useful time: not run.
    const regex = pattern.split("*").length > 8 ? "not run (hours)" : ms(1, () => oldRegex(pattern).test(name)).toFixed(1);
    const matcher = wildcardMatcher(pattern);
    console.log(`| \`${pattern}\` | ${length} | ${regex} | ${ms(1000, () => matcher(name)).toFixed(4)} |`);
  }
}
