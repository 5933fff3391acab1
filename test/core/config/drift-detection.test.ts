/**
 * A task's `drift_detection` block (issue 29, beyond CTS) as config files write it: kept on the task
 * as written, weakly decoded like every block, and refused with the file and field when its interval
 * is too short or not a duration, its cron does not parse, or it sets both.
 */
import { afterAll, describe, expect, test } from "vitest";
import { issuesOf, loadFiles, removeConfigDirs } from "./config-dir.ts";

afterAll(removeConfigDirs);

const TASK = (block: string) => `
task {
  name   = "web"
  module = "./m"
  condition "services" {
    names = ["web"]
  }
  ${block}
}
`;

describe("drift_detection", () => {
  test("is kept on the task as written; a task without the block has none", async () => {
    const { config } = await loadFiles({ "a.hcl": TASK(`drift_detection {\n  interval = "10m"\n  auto_correct = "true"\n}`) });
    expect(config.tasks[0]!.drift_detection).toEqual({ interval: "10m", auto_correct: true });
    const plain = await loadFiles({ "a.hcl": TASK("") });
    expect(plain.config.tasks[0]!.drift_detection).toBeUndefined();
  });

  test("a bad interval, a bad cron, both at once, or an unknown field name the file and the field", async () => {
    const issues = await issuesOf(loadFiles({ "a.hcl": TASK(`drift_detection {\n  interval = "500ms"\n  cron = "not a cron"\n}`) }));
    const text = issues.map((issue) => `${issue.file} ${issue.path}: ${issue.message}`).join("\n");
    expect(text).toContain("a.hcl task[0].drift_detection.interval: must be a duration of at least 1s");
    expect(text).toContain("a.hcl task[0].drift_detection.cron: and interval are both set");
    expect(text).toContain("task[0].drift_detection.cron: is not a cron expression");
    const unknown = await issuesOf(loadFiles({ "a.hcl": TASK(`drift_detection {\n  every = "1h"\n}`) }));
    expect(unknown.map((issue) => issue.path).join(" ")).toContain("drift_detection");
  });
});
