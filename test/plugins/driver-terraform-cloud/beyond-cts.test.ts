/**
 * Issue 29 with the HCP Terraform driver, end to end: the daemon (`node dist/main.js start`) with
 * `driver "terraform-cloud"`, the embedded Consul and the embedded HCP Terraform server, whose runs
 * execute the real terraform on a module that writes a file. A file changed by hand is found by the
 * drift check's plan-only runs (refresh-only, then normal) and reported with its resource address;
 * a PATCH of the task's variables applies once in the workspace; the destroy plan changes nothing;
 * delete with destroy queues a destroy run, which removes the file, then deletes the task.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunRecord } from "../../../core/plugin-api/mod.ts";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { FILE_MODULE } from "../../helpers/file-module.ts";
import { type DaemonProcess, startDaemonProcess } from "../../helpers/api-daemon-process.ts";
import { until } from "../../../harness/until.ts";
import { registerService } from "../../../harness/driver-terraform/e2e-support.ts";
import { tempDir } from "../../../harness/driver-terraform/terraform-env.ts";
import { runsOf, workspace } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

let consul: TestConsulDevServer;
let tfc: TfcDevServer;
let daemon: DaemonProcess;
let url = "";
const tmp = tempDir("tfc-beyond");
const file = join(tmp.path, "drifty.txt");
const read = () => (existsSync(file) ? readFileSync(file, "utf8") : undefined);
const withLogs = () => `\n--- daemon output\n${daemon.logs().slice(-6000)}`;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}${path}`, { method, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  consul = await startConsulDevServer();
  tfc = await startTfcDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  mkdirSync(join(tmp.path, "module"), { recursive: true });
  writeFileSync(join(tmp.path, "module", "main.tf"), FILE_MODULE);
  daemon = await startDaemonProcess({
    dir: tmp.path, consulAddress: consul.address, env: { TFC_TOKEN: tfc.token }, body: `driver "terraform-cloud" {
  hostname     = "${tfc.url}"
  organization = "${tfc.organization}"
  workspaces {
    prefix = "e2e-"
  }
}
task {
  name      = "drifty"
  module    = ${JSON.stringify(join(tmp.path, "module"))}
  variables = {
    path = ${JSON.stringify(JSON.stringify(file))}
  }
  condition "services" {
    names = ["web"]
  }
  drift_detection {
    interval = "1s"
  }
}
`,
  });
  url = daemon.url;
  await until(`the first apply${withLogs()}`, () => (read() === "v1" && daemon.logs().includes("all tasks ran once") ? true : undefined), 120_000, 100);
}, 150_000);

afterAll(async () => {
  await daemon?.stop();
  await consul?.stop();
  await tfc?.stop();
  tmp.remove();
});

test("drift, update, destroy plan and destroy on delete through HCP Terraform runs", async () => {
  const wsId = (await workspace(tfc, "e2e-drifty"))!.id as string;
  const drift = async () => (await api("GET", "/v1/status/tasks/drifty")).json.drifty.drift;
  await until(`a first drift check${withLogs()}`, async () => ((await drift())?.status === "none" ? true : undefined), 90_000, 100);
  writeFileSync(file, "changed by hand");
  const found = await until(`drift to be reported${withLogs()}`, async () => {
    const state = await drift();
    return state?.status === "drifted" ? state : undefined;
  }, 90_000, 100);
  expect(found.resources).toEqual([{ address: "module.drifty.terraform_data.file", action: "replace" }]);
  const runs = await runsOf(tfc, wsId);
  expect(runs.some((run: any) => run.attributes["plan-only"] && run.attributes["refresh-only"])).toBe(true);
  expect(read()).toBe("changed by hand"); // a drift check applies nothing

  const variables = { path: JSON.stringify(file), content: `"v2"` };
  const patched = await api("PATCH", "/v1/tasks/drifty?run=now", { variables, drift_detection: { enabled: false } });
  expect(patched.status, JSON.stringify(patched.json) + withLogs()).toBe(200);
  expect(read()).toBe("v2");
  const history: RunRecord[] = (await api("GET", "/v1/tasks/drifty/runs?limit=100")).json.runs;
  const summary = JSON.stringify(history.map(({ id, kind, trigger, outcome, started_at, ended_at }) => ({ id, kind, trigger, outcome, started_at, ended_at })));
  expect(history[0], summary + withLogs()).toMatchObject({ outcome: "applied", trigger: { kind: "api", detail: "update run=now" } });
  expect(history.some((run) => run.trigger.kind === "startup")).toBe(true);

  const applied = (await runsOf(tfc, wsId)).filter((run: any) => !run.attributes["plan-only"]).length;
  const preview = await api("DELETE", "/v1/tasks/drifty?destroy=true&run=inspect");
  expect(preview.status, JSON.stringify(preview.json)).toBe(200);
  expect(preview.json.inspect.plan).toContain("Plan: 0 to add, 0 to change, 1 to destroy.");
  expect(preview.json.inspect.plan).toContain("module.drifty.terraform_data.file (delete)");
  expect(preview.json.inspect.url).toMatch(/\/workspaces\/e2e-drifty\/runs\/run-/);
  expect(read()).toBe("v2");

  const destroyed = await api("DELETE", "/v1/tasks/drifty?destroy=true");
  expect(destroyed.status, JSON.stringify(destroyed.json) + withLogs()).toBe(202);
  expect(read()).toBeUndefined();
  expect((await api("GET", "/v1/tasks/drifty")).status).toBe(404);
  const after = (await runsOf(tfc, wsId)).filter((run: any) => !run.attributes["plan-only"]);
  expect(after).toHaveLength(applied + 1);
  expect(after[0].attributes["is-destroy"]).toBe(true);
  expect(after[0].attributes.status).toBe("applied");
}, 240_000);
