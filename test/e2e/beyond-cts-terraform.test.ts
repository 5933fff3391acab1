/**
 * Issue 29 end to end with the Terraform driver: one real daemon (`node dist/main.js start`), the
 * embedded Consul (state in its KV), the real terraform and a module that writes a file per task.
 * Destroy on delete (API and CLI, with its plan and prompt), a failed destroy that keeps the task,
 * drift of a file changed by hand (reported with its resource address, then corrected with
 * auto_correct), and tasks changed at runtime by PATCH and `task update`; CTS's plain delete, which
 * leaves the files, is pinned beside them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type DaemonProcess, startDaemonProcess } from "../helpers/api-daemon-process.ts";
import { runCli } from "../../harness/run-cli.ts";
import { until } from "../../harness/until.ts";
import { registerService } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";
import { FILE_MODULE } from "../helpers/file-module.ts";

const tmp = tempDir("beyond-cts");
let consul: TestConsulDevServer;
let daemon: DaemonProcess;
let url = "";

const fileOf = (task: string) => join(tmp.path, `${task}.txt`);
const read = (task: string) => (existsSync(fileOf(task)) ? readFileSync(fileOf(task), "utf8") : undefined);

function taskHcl(name: string, extra = "", fail = false): string {
  return `task {
  name      = "${name}"
  module    = ${JSON.stringify(join(tmp.path, "module"))}
  variables = {
    path         = ${JSON.stringify(JSON.stringify(fileOf(name)))}
    fail_destroy = "${fail}"
  }
  condition "services" {
    names = ["web"]
  }
${extra}
}
`;
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}${path}`, {
    method, ...(body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

/** Checks `value` against a schema of the daemon's own /v1/openapi.json (what the status page and clients read). */
let ajv: Ajv | undefined;
async function matchesOpenApi(schema: string, value: unknown): Promise<void> {
  if (!ajv) {
    const doc = (await api("GET", "/v1/openapi.json")).json;
    ajv = new Ajv({ strict: false, validateFormats: false });
    for (const [name, each] of Object.entries(doc.components.schemas)) ajv.addSchema(each as object, `#/components/schemas/${name}`);
  }
  expect(ajv.validate(`#/components/schemas/${schema}`, value), `${schema}: ${JSON.stringify(ajv.errors)}`).toBe(true);
}

const runsOf = async (task: string): Promise<RunRecord[]> => (await api("GET", `/v1/tasks/${task}/runs?limit=100`)).json.runs;
const cli = (args: string[], input?: string) =>
  runCli("node", args, { cwd: tmp.path, env: { CTS_ADDRESS: url }, ...(input !== undefined ? { input } : {}), timeoutMs: 120_000 });
const withLogs = () => `\n--- daemon output\n${daemon.logs().slice(-6000)}`;

beforeAll(async () => {
  consul = await startConsulDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  mkdirSync(join(tmp.path, "module"), { recursive: true });
  writeFileSync(join(tmp.path, "module", "main.tf"), FILE_MODULE);
  daemon = await startDaemonProcess({
    dir: tmp.path, consulAddress: consul.address, env: terraformTestEnv(), body: `${taskHcl("keep-me")}
${taskHcl("destroy-me")}
${taskHcl("stuck", "", true)}
${taskHcl("drifty", `  drift_detection {
    interval = "1s"
  }`)}
${taskHcl("patchy")}
`,
  });
  url = daemon.url;
  await until(`every task's file${withLogs()}`, () =>
    ["keep-me", "destroy-me", "stuck", "drifty", "patchy"].every((task) => read(task) === "v1") && daemon.logs().includes("all tasks ran once")
      ? true : undefined, 120_000, 100);
}, 150_000);

afterAll(async () => {
  await daemon?.stop();
  await consul?.stop();
  tmp.remove();
});

describe("destroy on delete", () => {
  it("pins CTS: task delete without -destroy deletes the task and leaves its file", async () => {
    const deleted = await cli(["task", "delete", "-auto-approve", "keep-me"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    await until("keep-me to be gone", async () => ((await api("GET", "/v1/tasks/keep-me")).status === 404 ? true : undefined));
    expect(read("keep-me")).toBe("v1");
  }, 60_000);

  it("task delete -destroy shows the destroy plan and asks; 'no' changes nothing, 'yes' destroys then deletes", async () => {
    const preview = await api("DELETE", "/v1/tasks/destroy-me?destroy=true&run=inspect");
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect(preview.json.inspect.changes_present).toBe(true);
    expect(preview.json.inspect.plan).toContain("module.destroy-me.terraform_data.file will be destroyed");
    await matchesOpenApi("DestroyPlanResponse", preview.json);
    expect(read("destroy-me")).toBe("v1");

    const declined = await cli(["task", "delete", "-destroy", "destroy-me"], "no\n");
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.stdout).toContain("==> Inspecting the destroy of the infrastructure of task 'destroy-me'...");
    expect(declined.stdout).toContain("terraform_data.file will be destroyed");
    expect(declined.stdout).toContain("==> Do you want to destroy the infrastructure of 'destroy-me' and delete the task?");
    expect(declined.stdout).toContain("    Cancelled deleting task 'destroy-me'");
    expect((await api("GET", "/v1/tasks/destroy-me")).status).toBe(200);
    expect(read("destroy-me")).toBe("v1");

    const destroyed = await cli(["task", "delete", "-destroy", "destroy-me"], "yes\n");
    expect(destroyed.code, destroyed.stdout + destroyed.stderr + withLogs()).toBe(0);
    expect(destroyed.stdout).toContain("==> Task 'destroy-me' has been destroyed and deleted.");
    expect(read("destroy-me")).toBeUndefined();
    expect((await api("GET", "/v1/tasks/destroy-me")).status).toBe(404);
  }, 120_000);

  it("a failed destroy keeps the task, errored, with the error and the resources left", async () => {
    const failed = await api("DELETE", "/v1/tasks/stuck?destroy=true");
    expect(failed.status, JSON.stringify(failed.json)).toBe(500);
    expect(failed.json.error.message).toContain(`Cannot destroy task "stuck"`);
    expect(failed.json.error.message).toContain("module.stuck.terraform_data.file");
    expect((await api("GET", "/v1/tasks/stuck")).status).toBe(200);
    const status = (await api("GET", "/v1/status/tasks/stuck")).json.stuck;
    expect(status.status).toBe("errored");
    const [newest] = await runsOf("stuck");
    expect(newest).toMatchObject({ kind: "destroy", outcome: "failed", resources_left: ["module.stuck.terraform_data.file"] });
    await matchesOpenApi("RunRecord", newest);
    expect(read("stuck")).toBe("v1");
  }, 120_000);
});

describe("drift detection", () => {
  it("reports a file changed by hand with its resource address, then auto_correct restores it", async () => {
    const drift = async () => (await api("GET", "/v1/status/tasks/drifty")).json.drifty.drift;
    await until(`a first drift check${withLogs()}`, async () => ((await drift())?.status === "none" ? true : undefined), 60_000, 100);
    writeFileSync(fileOf("drifty"), "changed by hand");
    const found = await until(`drift to be reported${withLogs()}`, async () => {
      const state = await drift();
      return state?.status === "drifted" ? state : undefined;
    }, 60_000, 100);
    expect(found.resources).toEqual([{ address: "module.drifty.terraform_data.file", action: "replace" }]);
    const record = (await runsOf("drifty")).find((run) => run.id === found.run_id)!;
    expect(record).toMatchObject({ kind: "drift-check", outcome: "checked", trigger: { kind: "drift", detail: "every 1s" } });
    expect(record.drift).toEqual({ detected: true, resources: found.resources });
    await matchesOpenApi("RunRecord", record);
    await matchesOpenApi("TaskStatusEntry", (await api("GET", "/v1/status/tasks/drifty")).json.drifty);
    const overall = (await api("GET", "/v1/status")).json;
    expect(overall.consul).toMatchObject({ healthy: true });
    await matchesOpenApi("OverallStatusResponse", overall);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain(`cts_task_drift{task="drifty"} 1`);
    expect(read("drifty")).toBe("changed by hand"); // report only by default

    const patched = await api("PATCH", "/v1/tasks/drifty", { drift_detection: { interval: "1s", auto_correct: true } });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    await until(`the file to be restored${withLogs()}`, () => (read("drifty") === "v1" ? true : undefined), 60_000, 100);
    // The provisioner writes the file during the apply; its record is stored when the run ends.
    const runs = await until("the correcting run's record", async () => {
      const all = await runsOf("drifty");
      return all.some((run) => run.kind === undefined && run.trigger.kind === "drift" && run.outcome === "applied") ? all : undefined;
    }, 60_000, 100);
    expect(runs.some((run) => run.kind === "drift-check" && run.drift?.corrected === true)).toBe(true);
    await until("a check that finds no drift again", async () => ((await drift())?.status === "none" ? true : undefined), 60_000, 100);
    const off = await api("PATCH", "/v1/tasks/drifty", { drift_detection: { enabled: false } });
    expect(off.status).toBe(200);
  }, 180_000);
});

describe("tasks changed at runtime", () => {
  it("PATCH inspect shows the change and changes nothing; run=now applies it once and keeps the history", async () => {
    const before = await runsOf("patchy");
    const variables = { path: JSON.stringify(fileOf("patchy")), fail_destroy: `"false"`, content: `"v2"` };
    const inspect = await api("PATCH", "/v1/tasks/patchy?run=inspect", { variables });
    expect(inspect.status, JSON.stringify(inspect.json)).toBe(200);
    expect(inspect.json.inspect.changes_present).toBe(true);
    expect(inspect.json.inspect.plan).toContain(`"v1" -> "v2"`);
    await matchesOpenApi("TaskUpdateResponse", inspect.json);
    expect(read("patchy")).toBe("v1");
    expect((await api("GET", "/v1/tasks/patchy")).json.task.variables.content).toBeUndefined();
    expect(await runsOf("patchy")).toEqual(before);

    const applied = await api("PATCH", "/v1/tasks/patchy?run=now", { variables });
    expect(applied.status, JSON.stringify(applied.json)).toBe(200);
    expect(applied.json.task.variables.content).toBe(`"v2"`);
    expect(read("patchy")).toBe("v2");
    const after = await runsOf("patchy");
    expect(after.slice(1)).toEqual(before);
    expect(after[0]).toMatchObject({ outcome: "applied", trigger: { kind: "api", detail: "update run=now" } });
    expect((await api("GET", "/v1/tasks/patchy")).json.task.variables.content).toBe(`"v2"`);
  }, 120_000);

  it("an invalid PATCH is refused and changes nothing", async () => {
    const task = (await api("GET", "/v1/tasks/patchy")).json.task;
    const runs = await runsOf("patchy");
    const bad: [unknown, string][] = [
      [{ buffer_period: { min: "soon" } }, "buffer_period.min"],
      [{ module: "" }, "/task/module"],
      [{ condition: { bogus: {} } }, "bogus"],
      [{ name: "renamed" }, "cannot be renamed"],
      [{ drift_detection: { interval: "10ms" } }, "drift_detection.interval"],
      [{ variables: { content: 7 } }, "variables"],
    ];
    for (const [body, text] of bad) {
      const answer = await api("PATCH", "/v1/tasks/patchy?run=now", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error.message).toContain(text);
    }
    expect((await api("GET", "/v1/tasks/patchy")).json.task).toEqual(task);
    expect(await runsOf("patchy")).toEqual(runs);
    expect(read("patchy")).toBe("v2");
  }, 60_000);

  it("task update -task-file shows the plan, asks as task create does, then applies", async () => {
    writeFileSync(join(tmp.path, "patchy.hcl"), taskHcl("patchy").replace(`fail_destroy = "false"`, `fail_destroy = "false"\n    content      = "\\"v3\\""`));
    const declined = await cli(["task", "update", "-task-file=patchy.hcl"], "no\n");
    expect(declined.code, declined.stdout + declined.stderr).toBe(0);
    expect(declined.stdout).toContain("==> Inspecting changes to resource if updating task 'patchy'...");
    expect(declined.stdout).toContain(`"v2" -> "v3"`);
    expect(declined.stdout).toContain("==> Updating the task will perform the actions described above.");
    expect(declined.stdout).toContain("    Cancelled updating task 'patchy'");
    expect(read("patchy")).toBe("v2");
    const updated = await cli(["task", "update", "-auto-approve", "-task-file=patchy.hcl"]);
    expect(updated.code, updated.stdout + updated.stderr).toBe(0);
    expect(updated.stdout).toContain("==> Task 'patchy' updated");
    expect(read("patchy")).toBe("v3");
  }, 120_000);
});
