/**
 * @module The counts of `npm test`'s last line (`N passed, N failed`) from vitest's JSON report: the
 * tests that passed and failed, plus one failure for each file that failed outside its tests (an
 * import, a beforeAll: its tests are skipped, none failed), plus one when vitest failed for a reason
 * the report does not show (an unhandled error). Whatever made vitest fail, the line says so.
 */

/**
 * @param {{ numPassedTests: number, numFailedTests: number, testResults: { name: string, status: string, assertionResults: { status: string }[] }[] }} report
 * @param {number} vitestExitCode
 */
export function summarize(report, vitestExitCode) {
  const brokenFiles = report.testResults
    .filter((file) => file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"))
    .map((file) => file.name);
  const counted = report.numFailedTests + brokenFiles.length;
  const unexplained = vitestExitCode !== 0 && counted === 0;
  return { passed: report.numPassedTests, failed: counted + (unexplained ? 1 : 0), brokenFiles, unexplained };
}
