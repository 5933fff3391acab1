/**
 * End to end on Node (dist/main.js): the daemon with `driver "terraform-cloud"`, the embedded Consul
 * and the embedded HCP Terraform server, whose runs execute the real terraform. Registrations are
 * applied in the workspace, the run URL reaches the task's events, inspect answers a plan summary,
 * a restarted daemon with unchanged inputs queues no run, and the token shows up nowhere.
 */
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import { runCli, spawnCli } from "../../../harness/run-cli.ts";
import { deregisterService, registerService, waitFor } from "../../../harness/driver-terraform/e2e-support.ts";
import { tempDir } from "../../../harness/driver-terraform/terraform-env.ts";
import { until } from "../../../harness/until.ts";
import { runsOf, stateIds, tfcApi, workspace, writeModule } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

describe("daemon with the terraform-cloud driver", () => {
  let consul: TestConsulDevServer;
  let tfc: TfcDevServer;
  let daemon: ChildProcess;
  let logs = "";
  let port: number;
  let config: string;
  const tmp = tempDir("tfc-daemon");
  const module = writeModule();
  const failing = writeModule();

  const start = () => {
    daemon = spawnCli("node", ["start", `-config-file=${config}`], { cwd: tmp.path, env: { TFC_TOKEN: tfc.token } });
    daemon.stdout!.on("data", (chunk) => (logs += chunk));
    daemon.stderr!.on("data", (chunk) => (logs += chunk));
  };
  const stop = async () => {
    if (daemon.exitCode !== null) return;
    const exited = new Promise((resolve) => daemon.once("exit", resolve));
    daemon.kill("SIGTERM");
    await exited;
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, text: await response.text() };
  };
  const wsId = async () => (await workspace(tfc, "e2e-web-task"))?.id as string | undefined;
  const followState = (expected: string[]) => waitFor(async () => {
    const id = await wsId();
    return id !== undefined && JSON.stringify(await stateIds(tfc, id)) === JSON.stringify(expected);
  }, () => `state never became ${JSON.stringify(expected)}\n${logs}`);

  beforeAll(async () => {
    consul = await startConsulDevServer();
    tfc = await startTfcDevServer();
    port = await freePort();
    await registerService(consul.url, "web-1", "web", "10.0.0.1");
    config = join(tmp.path, "cts.hcl");
    writeFileSync(config, `log_level   = "DEBUG"
port        = ${port}
working_dir = ${JSON.stringify(join(tmp.path, "sync-tasks"))}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
buffer_period {
  enabled = false
}
driver "terraform-cloud" {
  hostname     = "${tfc.url}"
  organization = "${tfc.organization}"
  workspaces {
    prefix = "e2e-"
    tags   = ["team:net"]
  }
}
task {
  name   = "web-task"
  module = ${JSON.stringify(module.dir)}
  condition "services" {
    names = ["web"]
  }
}
`);
    start();
  });

  afterAll(async () => {
    await stop();
    await consul?.stop();
    await tfc?.stop();
    module.remove();
    failing.remove();
    tmp.remove();
  });

  test("registrations and deregistrations are applied in the workspace; the run URL is in the events", async () => {
    await followState(["web-1"]);
    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    await followState(["web-1", "web-2"]);
    await deregisterService(consul.url, "web-1");
    await followState(["web-2"]);
    const id = (await wsId())!;
    await waitFor(async () => JSON.parse((await api("GET", "/v1/status/tasks/web-task?include=events")).text)["web-task"]?.events?.[0]?.url !== undefined,
      () => `no event with a url\n${logs}`);
    const status = JSON.parse((await api("GET", "/v1/status/tasks/web-task?include=events")).text);
    const runs = await runsOf(tfc, id);
    const urls = runs.map((run: any) => `${tfc.url}/app/${tfc.organization}/workspaces/e2e-web-task/runs/${run.id}`);
    expect(urls).toContain(status["web-task"].events[0].url);
    // CTS's log lines under driver.tfc.
    expect(logs).toMatch(/\[INFO\]  driver\.tfc: uploaded new configuration version for workspace: .*config_version_id=cv-/);
    // Beyond CTS: the run's record has the HCP Terraform run URL, its resources from the plan's JSON,
    // its plan and apply logs and their times.
    // The record of the run that event names (the engine may be ending it still).
    const eventId = status["web-task"].events[0].id;
    let ended: { id: string } | undefined;
    await waitFor(async () => {
      ended = JSON.parse((await api("GET", "/v1/tasks/web-task/runs?limit=20")).text).runs.find((run: { event_id?: string }) => run.event_id === eventId);
      return ended !== undefined;
    }, () => `no record of event ${eventId}\n${logs}`);
    const record = JSON.parse((await api("GET", `/v1/tasks/web-task/runs/${ended!.id}`)).text).run;
    expect(record).toMatchObject({
      outcome: "applied", url: status["web-task"].events[0].url, phases_ms: { plan: expect.any(Number), apply: expect.any(Number) },
      resources: [{ address: expect.stringMatching(/^module\.web-task\./), action: expect.any(String) }],
    });
    expect(record.logs.plan.text).toMatch(/Plan: /);
    expect(record.logs.apply.text).toMatch(/Apply complete!/);
  }, 120_000);

  test("?run=inspect answers a plan summary and the run URL, and applies nothing", async () => {
    const before = (await runsOf(tfc, (await wsId())!)).filter((run: any) => !run.attributes["plan-only"]).length;
    await registerService(consul.url, "web-3", "web", "10.0.0.3");
    // The engine applies web-3 on its own; wait for it, then inspect an unchanged task.
    await followState(["web-2", "web-3"]);
    // The run may still be finishing in the engine ("task is active"): ask again until it is idle.
    let answer = await api("PATCH", "/v1/tasks/web-task?run=inspect", { enabled: true });
    await waitFor(async () => {
      if (answer.status === 500 && answer.text.includes("is active")) answer = await api("PATCH", "/v1/tasks/web-task?run=inspect", { enabled: true });
      return !(answer.status === 500 && answer.text.includes("is active"));
    }, () => answer.text);
    expect(answer.status, answer.text).toBe(200);
    const body = JSON.parse(answer.text);
    // CTS's PATCH ?run=inspect answer: {"inspect": {changes_present, plan, url}}.
    expect(body.inspect.changes_present).toBe(false);
    expect(body.inspect.plan).toContain("No changes.");
    expect(body.inspect.url).toMatch(/\/workspaces\/e2e-web-task\/runs\/run-/);
    const after = (await runsOf(tfc, (await wsId())!)).filter((run: any) => !run.attributes["plan-only"]).length;
    expect(after).toBe(before + 1);
  }, 120_000);

  test("a task created through the API keeps its terraform_cloud_workspace settings (CTS GH-792 ignored them)", async () => {
    const answer = await api("POST", "/v1/tasks?run=now", {
      task: {
        name: "api-task", module: module.dir, condition: { services: { names: ["web"] } },
        terraform_cloud_workspace: { terraform_version: "1.11.4" },
      },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(JSON.parse(answer.text).task.terraform_cloud_workspace).toEqual({ terraform_version: "1.11.4" });
    await waitFor(async () => (await workspace(tfc, "e2e-api-task"))?.attributes["terraform-version"] === "1.11.4", () => logs);
    await waitFor(async () => {
      const id = (await workspace(tfc, "e2e-api-task"))!.id;
      return (await stateIds(tfc, id))?.length === 2;
    }, () => `api-task never applied\n${logs}`);
  }, 120_000);

  test("a failed run's event carries Terraform's error and the run's URL; a locked workspace shows in the task status", async () => {
    writeFileSync(join(failing.dir, "main.tf"), `variable "services" {\n  type = any\n}\nresource "terraform_data" "x" {\n  provisioner "local-exec" {\n    command = "exit 3"\n  }\n}\n`);
    // A workspace locked by someone: a run of the task waits, and the task's status says why.
    const ws = await tfcApi(tfc, "POST", `/organizations/${tfc.organization}/workspaces`, { data: { type: "workspaces", attributes: { name: "e2e-locked-task", "auto-apply": true } } });
    await tfcApi(tfc, "POST", `/workspaces/${ws.body.data.id}/actions/lock`, { reason: "change freeze" });
    for (const [name, dir] of [["failing-task", failing.dir], ["locked-task", module.dir]]) {
      const created = await api("POST", "/v1/tasks", { task: { name, module: dir, condition: { services: { names: ["web"] } } } });
      expect(created.status, created.text).toBe(201);
    }
    // A change both tasks watch runs them.
    await registerService(consul.url, "web-9", "web", "10.0.0.9");
    const event = await until("the failed run's event", async () =>
      JSON.parse((await api("GET", "/v1/status/tasks/failing-task?include=events")).text)["failing-task"]?.events?.[0]);
    expect(event.success).toBe(false);
    expect(event.error.message).toContain("Error: local-exec provisioner error");
    expect(event.url).toMatch(new RegExp(`^${tfc.url}/app/${tfc.organization}/workspaces/e2e-failing-task/runs/run-\\w+$`));

    const waiting = await until("the wait in the task status", async () =>
      JSON.parse((await api("GET", "/v1/status/tasks/locked-task")).text)["locked-task"]?.waiting);
    expect(waiting).toMatch(/^run run-\w+ workspace locked by user user-tfc-dev: change freeze \(http/);
    await tfcApi(tfc, "POST", `/workspaces/${ws.body.data.id}/actions/unlock`, {});
    const done = await until("the locked task's run", async () =>
      JSON.parse((await api("GET", "/v1/status/tasks/locked-task?include=events")).text)["locked-task"]?.events?.[0]);
    expect(done.success).toBe(true);
    expect(JSON.parse((await api("GET", "/v1/status/tasks/locked-task")).text)["locked-task"].waiting).toBeUndefined();
    expect(logs).toMatch(/\[INFO\]  driver\.tfc: run is waiting in HCP Terraform: workspace_name=e2e-locked-task run_id=run-\w+ reason="workspace locked by user user-tfc-dev: change freeze"/);
    await deregisterService(consul.url, "web-9");
    await followState(["web-2", "web-3"]);
  }, 120_000);

  test("a restarted daemon with unchanged inputs queues no run (CTS queues one per task)", async () => {
    const id = (await wsId())!;
    const before = (await runsOf(tfc, id)).length;
    await stop();
    logs = "";
    start();
    await waitFor(() => logs.includes("inputs unchanged since the last applied run, no run queued"), () => logs);
    expect((await runsOf(tfc, id)).length).toBe(before);
  }, 120_000);

  test("the token appears in no log line and no API answer", async () => {
    expect(logs).not.toContain(tfc.token);
    for (const path of ["/v1/status/tasks/web-task?include=events", "/v1/tasks/web-task", "/v1/status"]) {
      expect((await api("GET", path)).text).not.toContain(tfc.token);
    }
  });

  test("a wrong token stops start-up with HCP Terraform's answer, without printing the token", async () => {
    const wrong = "wrong.atlasv1.not-the-token";
    const result = await runCli("node", ["start", "-once", `-config-file=${config}`], { cwd: tmp.path, env: { TFC_TOKEN: wrong } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`Cannot use organization "${tfc.organization}" at ${tfc.url}: HCP Terraform answered 401: unauthorized`);
    expect(result.stdout + result.stderr).not.toContain(wrong);
  }, 60_000);

  test("-inspect prints the plan summary of a speculative plan", async () => {
    await stop();
    await registerService(consul.url, "web-4", "web", "10.0.0.4");
    const result = await runCli("node", ["start", "-inspect", `-config-file=${config}`], { cwd: tmp.path, env: { TFC_TOKEN: tfc.token } });
    const out = result.stdout + result.stderr;
    expect(out).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    expect(out).toContain("module.web-task.terraform_data.ids (update)");
    expect(out).not.toContain(tfc.token);
  }, 120_000);
});
