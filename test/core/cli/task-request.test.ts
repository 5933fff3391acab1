/**
 * `task create -task-file`: the request body for a task whose condition never buffers. CTS behaviour
 * pinned: CTS's CLI sends no buffer_period for a scheduled task (its config ignores one, with a
 * warning), and sends a configured one for any other task. The CLI learns "never buffers" from the
 * condition's owner (`unbuffered`), not from the type name.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { taskRequestFromFile } from "../../../core/cli/commands/task-request.ts";

const dir = mkdtempSync(join(tmpdir(), "cts-task-request-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const taskFile = (name: string, condition: string) => {
  writeFileSync(join(dir, `${name}.hcl`), `task {
  name   = "${name}"
  module = "./m"
  buffer_period {
    min = "9s"
  }
  condition ${condition}
}
`);
  return `${name}.hcl`;
};

it("sends no buffer_period for a scheduled task, and the configured one otherwise", async () => {
  const scheduled = await taskRequestFromFile(taskFile("nightly", `"schedule" {\n    cron = "0 0 * * *"\n  }`), dir, {});
  expect(scheduled).not.toHaveProperty("buffer_period");
  expect(scheduled.condition).toEqual({ schedule: { cron: "0 0 * * *" } });
  const watched = await taskRequestFromFile(taskFile("web", `"services" {\n    names = ["web"]\n  }`), dir, {});
  expect(watched.buffer_period).toEqual({ enabled: true, min: "9s", max: "36s" });
});
