/** Types of test-summary.mjs (a plain script, run by Node without a build). */
export interface VitestJsonReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly testResults: readonly { readonly name: string; readonly status: string; readonly assertionResults: readonly { readonly status: string }[] }[];
}

export interface TestSummary {
  readonly passed: number;
  readonly failed: number;
  /** Files that failed outside their tests, each counted as one failure. */
  readonly brokenFiles: string[];
  /** Vitest failed and the report shows no failure: counted as one. */
  readonly unexplained: boolean;
}

export function summarize(report: VitestJsonReport, vitestExitCode: number): TestSummary;
