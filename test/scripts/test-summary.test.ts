/**
 * `npm test`'s last line counts what made the run fail: failed tests, files that failed outside their
 * tests (a beforeAll that gave up: their tests are only skipped), and a vitest failure the report
 * does not explain. A run with a broken file once printed "0 failed" for it.
 */
import { describe, expect, it } from "vitest";
import { summarize } from "../../scripts/test-summary.mjs";

const file = (name: string, status: string, tests: string[]) => ({ name, status, assertionResults: tests.map((s) => ({ status: s })) });

describe("the N passed, N failed line", () => {
  it("counts a file whose beforeAll failed (its tests skipped) as one failure", () => {
    const report = {
      numPassedTests: 5, numFailedTests: 0,
      testResults: [file("/r/a.test.ts", "passed", ["passed", "passed"]), file("/r/b.test.ts", "failed", ["skipped", "skipped"])],
    };
    expect(summarize(report, 1)).toEqual({ passed: 5, failed: 1, brokenFiles: ["/r/b.test.ts"], unexplained: false });
  });

  it("counts failed tests once, not their file again", () => {
    const report = { numPassedTests: 3, numFailedTests: 2, testResults: [file("/r/c.test.ts", "failed", ["failed", "failed", "passed"])] };
    expect(summarize(report, 1)).toEqual({ passed: 3, failed: 2, brokenFiles: [], unexplained: false });
  });

  it("counts a vitest failure the report does not show (an unhandled error) as one; a clean run as none", () => {
    const clean = { numPassedTests: 4, numFailedTests: 0, testResults: [file("/r/d.test.ts", "passed", ["passed"])] };
    expect(summarize(clean, 1)).toEqual({ passed: 4, failed: 1, brokenFiles: [], unexplained: true });
    expect(summarize(clean, 0)).toEqual({ passed: 4, failed: 0, brokenFiles: [], unexplained: false });
  });
});
