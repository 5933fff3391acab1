/**
 * The task commands print CTS's texts, which scripts and runbooks match (command/meta.go,
 * command/task_*.go): prompts, results, cancellations, usage lines, argument and flag errors,
 * each on CTS's stream. Run in-process against a real kernel over real HTTP (schedule tasks,
 * recording driver). Text beyond CTS's may follow its lines, never replace them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../core/cli/run-cli.ts";
import { startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";
import { bufferIo } from "./helpers/cli-io.ts";

const NEVER = "0 0 1 1 *";

const warning = [
  "    Do you want to perform these actions for 'cts_text'?",
  "     - This action cannot be undone.",
  "     - Consul-Terraform-Sync cannot guarantee Terraform will perform",
  "       these exact actions if monitored services have changed.",
].join("\n");
const onlyYes = "    Only 'yes' will be accepted to approve, enter 'no' or leave blank to reject.";

describe("CTS's task command texts", () => {
  let daemon: ApiKernel;
  let dir: string;
  const io = (answers: string[] = []) => bufferIo(answers, { CTS_ADDRESS: daemon.url }, dir);
  const out = (buffer: { stdout: string[] }) => buffer.stdout.join("");
  const err = (buffer: { stderr: string[] }) => buffer.stderr.join("");

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cts-cli-texts-"));
    writeFileSync(path.join(dir, "task.hcl"),
      `task {\n  name = "cts_text"\n  module = "./module"\n  condition "schedule" {\n    cron = "${NEVER}"\n  }\n}\n`);
    daemon = await startApiKernel();
  });
  afterAll(async () => {
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("task create: prompt, cancellation and result", async () => {
    const declined = io(["no"]);
    expect(await runCli(["task", "create", "-task-file=task.hcl"], declined)).toBe(0);
    expect(out(declined)).toContain("==> Inspecting changes to resource if creating task 'cts_text'...\n");
    expect(out(declined)).toContain("    Generating plan that Consul-Terraform-Sync will use Terraform to execute\n");
    expect(out(declined)).toContain(`==> Creating the task will perform the actions described above.\n${warning}\n`);
    expect(out(declined)).toContain(onlyYes);
    expect(out(declined)).toContain("    Cancelled creating task 'cts_text'\n");

    const created = io(["yes"]);
    expect(await runCli(["task", "create", "-task-file=task.hcl"], created)).toBe(0);
    expect(out(created)).toContain("==> Creating and running task 'cts_text'...\n");
    expect(out(created)).toContain("    Warning: Terminating this process will not stop task creation.\n");
    expect(out(created)).toMatch(/==> Task 'cts_text' created\n {4}Request ID: '[0-9a-f-]{36}'\n/);
  });

  it("task disable and enable: progress, prompt, cancellation and results", async () => {
    const disable = io();
    expect(await runCli(["task", "disable", "cts_text"], disable)).toBe(0);
    expect(out(disable)).toBe("==> Waiting to disable 'cts_text'...\n\n==> 'cts_text' disable complete!\n");

    const declined = io([""]);
    expect(await runCli(["task", "enable", "cts_text"], declined)).toBe(0);
    expect(out(declined)).toContain("==> Inspecting changes to resource if enabling 'cts_text'...\n");
    expect(out(declined)).toContain(`==> Enabling the task will perform the actions described above.\n${warning}\n`);
    expect(out(declined)).toContain("    Cancelled enabling task 'cts_text'\n");
    expect(daemon.tasks.get("cts_text")?.config.enabled).toBe(false);

    const enable = io(["yes"]);
    expect(await runCli(["task", "enable", "cts_text"], enable)).toBe(0);
    expect(out(enable)).toContain("==> Enabling and running 'cts_text'...\n");
    expect(out(enable)).toMatch(/==> 'cts_text' enable complete!\n$/);
  });

  it("task delete: prompt, cancellation and result", async () => {
    const declined = io(["no"]);
    expect(await runCli(["task", "delete", "cts_text"], declined)).toBe(0);
    expect(out(declined)).toContain([
      "==> Do you want to delete 'cts_text'?",
      "     - This action cannot be undone.",
      "     - Deleting a task will not destroy the infrastructure managed by the task.",
      "     - If the task is not running, it will be deleted immediately.",
      "     - If the task is running, it will be deleted once it has completed.",
    ].join("\n"));
    expect(out(declined)).toContain("    Cancelled deleting task 'cts_text'\n");

    const deleted = io(["yes"]);
    expect(await runCli(["task", "delete", "cts_text"], deleted)).toBe(0);
    expect(out(deleted)).toContain("==> Marking task 'cts_text' for deletion...\n");
    expect(out(deleted)).toContain("==> Task 'cts_text' has been marked for deletion and will be deleted when not running.\n");
  });

  it("argument errors: CTS's texts, exit 13", async () => {
    const none = io();
    expect(await runCli(["task", "enable"], none)).toBe(13);
    expect(err(none)).toBe("==> Error: this command requires one argument: [options] <task name>\n");
    expect(out(none)).toBe("    No arguments were passed to the command\n    For additional help try 'cts-runtime task enable --help'\n");

    const two = io();
    expect(await runCli(["task", "delete", "a", "-auto-approve"], two)).toBe(13);
    expect(out(two)).toContain("    2 arguments were passed to the command: 'a, -auto-approve'\n");
    expect(out(two)).toContain("    All flags are required to appear before positional arguments if set\n");

    const noFile = io();
    expect(await runCli(["task", "create"], noFile)).toBe(13);
    expect(err(noFile)).toBe("==> Error: unable to create request\n");
    expect(out(noFile)).toBe("    no task file provided\n    For additional help try 'cts-runtime task create --help'\n");
  });

  it("flag errors: CTS's texts and streams, exit 14", async () => {
    const bogus = io();
    expect(await runCli(["task", "disable", "-bogus", "x"], bogus)).toBe(14);
    expect(out(bogus)).toMatch(/^flag provided but not defined: -bogus\n/);
    expect(err(bogus)).toBe("==> Error: unsupported arguments in flags '-bogus, x'\n");
    expect(out(bogus)).toContain("    Please see --help information below for supported options:\n");
    expect(out(bogus)).toContain("Usage: cts-runtime task disable [-help] [options] <task name>");

    const create = io();
    expect(await runCli(["task", "create", "-bogus"], create)).toBe(14);
    expect(out(create)).toMatch(/^flag provided but not defined: -bogus\nUsage: cts-runtime task create \[-help\] \[options\] -task-file=<task config>\n/);
  });

  it("usage lines", async () => {
    for (const [command, synopsis] of [
      ["enable", "<task name>"], ["disable", "<task name>"], ["delete", "<task name>"], ["create", "-task-file=<task config>"],
    ] as const) {
      const help = io();
      expect(await runCli(["task", command, "-help"], help)).toBe(0);
      expect(out(help)).toMatch(new RegExp(`^Usage: cts-runtime task ${command} \\[-help\\] \\[options\\] ${synopsis}\\n`));
    }
    const start = io();
    expect(await runCli(["start", "-help"], start)).toBe(0);
    expect(out(start)).toMatch(/^Usage: cts-runtime start \[-help\] \[options\]\n/);
  });
});
