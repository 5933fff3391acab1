#!/usr/bin/env node
// @ts-check
/**
 * The whole test command (`npm test`): the setup steps (build, typecheck, boundaries, the Debian and
 * Go packages some suites drive), then both vitest tiers (unit and integration, vitest.config.ts);
 * then one plain `N passed, N failed` line, which is what CI reads. The numbers count tests; a setup
 * step is not a test, but a failed one counts as one failure, so the line and the exit code still
 * say the run failed. Extra vitest arguments pass through (`npm test -- test/core`,
 * `npm test -- --project unit`).
 */
import { $, fs, path } from "zx";
import { summarize } from "./test-summary.mjs";

$.verbose = false;
const root = path.resolve(import.meta.dirname, "..");
const reportFile = path.join(root, ".vitest-reports", "results.json");
const extraArgs = process.argv.slice(2);

let passed = 0;
let failed = 0;

/** A setup step: not a test, so it adds nothing to `passed`; a failure prints its output and fails the run. */
async function setupStep(name, run) {
  const started = Date.now();
  const result = await run();
  const ok = result.exitCode === 0;
  if (!ok) {
    failed++;
    process.stdout.write(result.stdout + result.stderr);
  }
  console.log(`setup ${ok ? "ok  " : "FAIL"} ${name} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
  return ok;
}

await setupStep("build", () => $({ cwd: root, nothrow: true })`npm run --silent build`);
await setupStep("typecheck", () => $({ cwd: root, nothrow: true })`npx tsc -p . --noEmit`);
await setupStep("runtime and DI boundaries", () => $({ cwd: root, nothrow: true })`node scripts/check-boundaries.mjs`);
await setupStep("python3-consul available", () => $({ cwd: root, nothrow: true })`sh scripts/setup-debian-python.sh consul python3-consul`);
await setupStep("go-tfe available", () => $({ cwd: root, nothrow: true })`sh scripts/setup-go-tfe.sh`);
await setupStep("python3-hvac available", () => $({ cwd: root, nothrow: true })`sh scripts/setup-debian-python.sh hvac python3-hvac`);
await setupStep("chromium available", () => $({ cwd: root, nothrow: true })`sh scripts/setup-chromium.sh`);
await setupStep("rsyslog available", () => $({ cwd: root, nothrow: true })`sh scripts/setup-rsyslog.sh`);

await fs.remove(reportFile);
const vitest = await $({ cwd: root, nothrow: true, stdio: ["ignore", "inherit", "inherit"] })`npx vitest run --reporter=default --reporter=json --outputFile.json=${reportFile} ${extraArgs}`;
if (await fs.pathExists(reportFile)) {
  const summary = summarize(await fs.readJson(reportFile), vitest.exitCode);
  passed += summary.passed;
  failed += summary.failed;
  for (const file of summary.brokenFiles) console.log(`failed outside its tests (counted as one failure): ${path.relative(root, file)}`);
  if (summary.unexplained) console.log(`vitest exited with code ${vitest.exitCode} (an unhandled error: see above)`);
} else {
  failed++;
  console.log(`vitest wrote no report (exit code ${vitest.exitCode})`);
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && vitest.exitCode === 0 ? 0 : 1);
