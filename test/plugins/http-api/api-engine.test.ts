/**
 * The API and the CLI task commands over real HTTP against a real kernel: real task engine,
 * store and leadership, the recording driver, schedule tasks (no Consul needed).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CtsApiClient, ApiRequestError } from "../../../core/cli/api-client.ts";
import { runCli } from "../../../core/cli/run-cli.ts";
import { clearRecordingLog, recorded } from "../../../harness/driver-recording/mod.ts";
import { startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";
import { bufferIo } from "./helpers/cli-io.ts";

// Never fires during a test: runs come only from run=now.
const NEVER = "0 0 1 1 *";

describe("API and CLI against the real engine", () => {
  let daemon: ApiKernel;
  let client: CtsApiClient;
  let dir: string;
  const env = () => ({ CTS_ADDRESS: daemon.url });

  beforeAll(async () => {
    clearRecordingLog();
    dir = mkdtempSync(path.join(tmpdir(), "cts-api-engine-"));
    daemon = await startApiKernel({ recording: { fail_tasks: ["doomed"] } });
    client = new CtsApiClient(daemon.url);
  });
  afterAll(async () => {
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates, runs, disables, enables, inspects and deletes through the API", async () => {
    const task = { name: "api_task", module: "./module", condition: { schedule: { cron: NEVER } } };
    const inspect = await client.request("POST", "/v1/tasks?run=inspect", { task });
    expect(inspect.status).toBe(200);
    expect((inspect.body as { run: { plan: string } }).run.plan).toContain("recording plan for api_task");
    expect((await client.request("GET", "/v1/tasks")).body).toMatchObject({ tasks: [] });

    const created = await client.request("POST", "/v1/tasks?run=now", { task });
    expect(created.status).toBe(201);
    expect(recorded("apply", "api_task")).toHaveLength(1);
    const status = (await client.request("GET", "/v1/status/tasks/api_task?include=events")).body as Record<string, { status: string; events: unknown[] }>;
    expect(status.api_task!.status).toBe("successful");
    expect(status.api_task!.events).toHaveLength(1);

    await client.request("PATCH", "/v1/tasks/api_task", { enabled: false });
    expect(daemon.tasks.get("api_task")?.config.enabled).toBe(false);
    const planned = await client.request("PATCH", "/v1/tasks/api_task?run=inspect", { enabled: true });
    expect(planned.body).toMatchObject({ inspect: { changes_present: true } });
    expect(daemon.tasks.get("api_task")?.config.enabled).toBe(false);
    await client.request("PATCH", "/v1/tasks/api_task?run=now", { enabled: true });
    expect(daemon.tasks.get("api_task")?.config.enabled).toBe(true);
    expect(recorded("apply", "api_task")).toHaveLength(2);

    const deleted = await client.request("DELETE", "/v1/tasks/api_task");
    expect(deleted.status).toBe(202);
    await daemon.tasks.idle();
    await expect(client.request("GET", "/v1/tasks/api_task")).rejects.toMatchObject({ status: 404 });
  });

  it("keeps nothing when run=now fails, and answers 500 with the driver's error", async () => {
    const task = { name: "doomed", module: "./module", condition: { schedule: { cron: NEVER } } };
    const error = await client.request("POST", "/v1/tasks?run=now", { task }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).status).toBe(500);
    expect((error as ApiRequestError).message).toContain("configured to fail");
    expect((error as ApiRequestError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(daemon.tasks.get("doomed")).toBeUndefined();
  });

  it("runs the CLI task commands: create from HCL, status, disable, enable, delete", async () => {
    const file = path.join(dir, "task.hcl");
    writeFileSync(file, `task {\n  name = "cli_task"\n  module = "./module"\n  condition "schedule" {\n    cron = "${NEVER}"\n  }\n}\n`);

    const declined = bufferIo(["no"], env(), dir);
    expect(await runCli(["task", "create", "-task-file=task.hcl"], declined)).toBe(0);
    expect(declined.stdout.join("")).toContain("Cancelled creating task 'cli_task'");
    expect(daemon.tasks.get("cli_task")).toBeUndefined();

    const io = bufferIo(["yes"], env(), dir);
    expect(await runCli(["task", "create", "-task-file", "task.hcl"], io)).toBe(0);
    const out = io.stdout.join("");
    expect(out).toContain("==> Inspecting changes to resource if creating task 'cli_task'...");
    expect(out).toContain("    Request Payload:");
    expect(out).toContain("    recording plan for cli_task");
    expect(out).toContain("==> Task 'cli_task' created");
    expect(io.prompts).toEqual(["Enter a value: "]);
    expect(daemon.tasks.get("cli_task")?.events).toHaveLength(1);

    const status = bufferIo([], env());
    expect(await runCli(["status"], status)).toBe(0);
    const table = status.stdout.join("").split("\n");
    expect(table[0]).toMatch(/^TASK\s+ENABLED\s+STATUS\s+LAST RUN\s+LAST ERROR$/);
    expect(table[1]).toMatch(/^cli_task\s+true\s+successful\s+\d{4}-\d\d-\d\dT\S+\s+-$/);

    expect(await runCli(["task", "disable", "cli_task"], bufferIo([], env()))).toBe(0);
    expect(daemon.tasks.get("cli_task")?.config.enabled).toBe(false);

    const enable = bufferIo([], env());
    expect(await runCli(["task", "enable", "-auto-approve", "cli_task"], enable)).toBe(0);
    expect(enable.stdout.join("")).toContain("==> 'cli_task' enable complete!");
    expect(daemon.tasks.get("cli_task")?.config.enabled).toBe(true);
    expect(daemon.tasks.get("cli_task")?.events).toHaveLength(2);

    const keep = bufferIo([""], env());
    expect(await runCli(["task", "delete", "cli_task"], keep)).toBe(0);
    expect(daemon.tasks.get("cli_task")).toBeDefined();
    expect(await runCli(["task", "delete", "-auto-approve", "cli_task"], bufferIo([], env()))).toBe(0);
    await daemon.tasks.idle();
    expect(daemon.tasks.get("cli_task")).toBeUndefined();
  });

  it("uses CTS's exit codes: 13 for missing arguments, 11 for API failures, 14 for bad flags", async () => {
    expect(await runCli(["task", "enable"], bufferIo([], env()))).toBe(13);
    expect(await runCli(["task", "create"], bufferIo([], env()))).toBe(13);
    const missing = bufferIo([], env());
    expect(await runCli(["task", "disable", "nope"], missing)).toBe(11);
    // CTS (command/task_disable.go): the step's headline on stderr, the daemon's message on stdout.
    expect(missing.stderr.join("")).toBe("==> Error: unable to disable 'nope'\n");
    expect(missing.stdout.join("")).toContain("does not exist");
    expect(missing.stdout.join("")).toMatch(/Request ID: [0-9a-f-]{36}/);
    expect(await runCli(["task", "disable", "-bogus", "x"], bufferIo([], env()))).toBe(14);
    const two = path.join(dir, "two.hcl");
    writeFileSync(two, `task {\n  name = "a"\n  module = "m"\n  condition "schedule" {\n    cron = "${NEVER}"\n  }\n}\ntask {\n  name = "b"\n  module = "m"\n  condition "schedule" {\n    cron = "${NEVER}"\n  }\n}\n`);
    const twoIo = bufferIo([], env(), dir);
    expect(await runCli(["task", "create", "-task-file=two.hcl"], twoIo)).toBe(11);
    expect(twoIo.stderr.join("")).toBe("==> Error: unable to create request\n");
    expect(twoIo.stdout.join("")).toContain("    task file 'two.hcl' cannot contain more than 1 task, contains 2 tasks");
    const old = path.join(dir, "old.hcl");
    writeFileSync(old, `task {\n  name = "a"\n  source = "m"\n  services = ["web"]\n}\n`);
    const oldIo = bufferIo([], env(), dir);
    expect(await runCli(["task", "create", "-task-file=old.hcl"], oldIo)).toBe(11);
    // CTS's sentences (command/task_create.go), one per deprecated field.
    expect(oldIo.stdout.join("")).toContain("the 'source' field in the task block is no longer supported");
    expect(oldIo.stdout.join("")).toContain("the 'services' field in the task block is no longer supported");
    const down = bufferIo([], { CTS_ADDRESS: "http://127.0.0.1:9" });
    expect(await runCli(["task", "disable", "x"], down)).toBe(11);
    expect(down.stderr.join("")).toBe("==> Error: unable to disable 'x'\n");
    expect(down.stdout.join("")).toContain("Cannot reach the daemon");
  });

  it("creates from a JSON task file, loading variable_files client-side; status shows one task", async () => {
    writeFileSync(path.join(dir, "vars.tfvars"), 'size = 3\nlabel = "blue"\n');
    writeFileSync(path.join(dir, "task.json"), JSON.stringify({
      task: [{
        name: "json_task",
        module: "./module",
        variable_files: ["vars.tfvars"],
        condition: { schedule: { cron: NEVER } },
      }],
    }));
    const io = bufferIo([], env(), dir);
    expect(await runCli(["task", "create", "-auto-approve", "-task-file=task.json"], io)).toBe(0);
    expect(io.prompts).toEqual([]);
    expect(daemon.tasks.get("json_task")?.config.variables).toEqual({ size: "3", label: '"blue"' });

    const one = bufferIo([], env());
    expect(await runCli(["status", "json_task"], one)).toBe(0);
    expect(one.stdout.join("").trim().split("\n")).toHaveLength(2);
    const unknown = bufferIo([], env());
    expect(await runCli(["status", "nope"], unknown)).toBe(11);
    expect(await runCli(["task", "delete", "-auto-approve", "json_task"], bufferIo([], env()))).toBe(0);
  });
});
