/**
 * The terraform-cloud driver against the embedded HCP Terraform server (real HTTP, runs executed by
 * the real terraform): workspaces, uploads, variables, runs, inspect, retries and errors.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DriverConfig } from "../../../core/plugin-api/mod.ts";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { terraformRootModule } from "../../../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../../../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { captureLogger } from "../../../harness/driver-terraform/capture-logger.ts";
import { driverBlock, inputsOf, runsOf, stateIds, task, tfcApi, workspace, writeModule } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

const signal = new AbortController().signal;
let server: TfcDevServer;
let module: ReturnType<typeof writeModule>;

beforeAll(async () => {
  server = await startTfcDevServer();
  module = writeModule();
});
afterAll(async () => {
  await server?.stop();
  module?.remove();
});

function setup(driver: DriverConfig, env: Record<string, string> = {}) {
  const logger = captureLogger([], "driver.tfc");
  const factory = createTerraformCloudDriverFactory({ http: createHttpClientFactory(), fs: createFileSystem(), logger, env, rootModule: terraformRootModule });
  const create = (name: string, extra = {}) => factory.create(task(name, module.dir, extra), {
    driver, providers: [], consul: {} as never, workingDir: "", logger, inputs: [],
  });
  return { factory, logger, create };
}

describe("terraform-cloud driver", () => {
  test("creates the tagged workspace, uploads, applies; same inputs queue nothing, even for a new instance", async () => {
    const driver = driverBlock(server, { workspaces: { prefix: "cts_", tags: ["team:net"] } });
    const { create, logger, factory } = setup(driver);
    const one = await create("web", { variables: { label: "\"blue\"" } });
    await one.init(signal);
    // init reads only; the first run sets the workspace up (CTS's start-up steps).
    expect(await workspace(server, "cts_web")).toBeUndefined();
    await one.render(inputsOf("web-1"), signal);
    await one.apply(signal);
    const ws = await workspace(server, "cts_web");
    // CTS behaviour (reference §2): name = prefix + task, auto-apply, tag source:cts plus the configured tags.
    expect(ws.attributes["auto-apply"]).toBe(true);
    expect([...ws.attributes["tag-names"]].sort()).toEqual(["source:cts", "team:net"]);
    expect(logger.lines.some((l) => l.message === "uploaded new configuration version for workspace")).toBe(true);
    expect(await stateIds(server, ws.id)).toEqual(["web-1"]);
    expect((await runsOf(server, ws.id)).length).toBe(1);

    // The engine calls apply again with the same inputs only for a forced run (?run=now): one is queued.
    await one.apply(signal);
    expect((await runsOf(server, ws.id)).length).toBe(2);
    // A new instance (restart, new HA leader) with the same inputs queues nothing (CTS queues one per task).
    const fresh = await create("web", { variables: { label: "\"blue\"" } });
    await fresh.init(signal);
    await fresh.render(inputsOf("web-1"), signal);
    const client = await factory.clientFor(driver);
    expect(await fresh.apply(signal)).toBeUndefined();
    expect((await runsOf(server, ws.id)).length).toBe(2);
    expect(logger.lines.filter((l) => l.message === "inputs unchanged since the last applied run, no run queued").length).toBe(1);

    // A change: only the services variable is written, one run, the state follows.
    await fresh.render(inputsOf("web-1", "web-2"), signal);
    const before = new Map(client.requestCounts);
    const applied = await fresh.apply(signal);
    expect((await runsOf(server, ws.id)).length).toBe(3);
    // Beyond CTS: the run's resource counts (from its plan, read with the run), its resources from the
    // plan's JSON and its phase times for the run history.
    expect(applied).toEqual({
      url: expect.any(String), summary: { add: expect.any(Number), change: expect.any(Number), destroy: expect.any(Number) },
      resources: [{ address: "module.web.terraform_data.ids", action: expect.stringMatching(/^(update|replace)$/) }],
      phases_ms: { plan: expect.any(Number), apply: expect.any(Number) },
    });
    expect(applied!.summary!.add + applied!.summary!.change + applied!.summary!.destroy).toBeGreaterThan(0);
    expect(await stateIds(server, ws.id)).toEqual(["web-1", "web-2"]);
    const vars = (await tfcApi(server, "GET", `/workspaces/${ws.id}/vars`)).body.data;
    expect(vars.map((v: any) => v.attributes.key).sort()).toEqual(["label", "services"]);
    // Beyond CTS: the steady-state cost of a change is the changed variable + 1 run + polls, and for
    // the run history one read of each phase and of the plan's JSON (the logs too when the engine listens).
    const sent = [...client.requestCounts].map(([kind, count]) => [kind, count - (before.get(kind) ?? 0)] as const)
      .filter(([kind, count]) => count > 0 && kind !== "GET /api/v2/runs/:id");
    expect(Object.fromEntries(sent)).toEqual({
      "PATCH /api/v2/workspaces/:id/vars/:id": 1, "POST /api/v2/runs": 1,
      "GET /api/v2/plans/:id": 1, "GET /api/v2/applies/:id": 1, "GET /api/v2/plans/:id/json-output": 1,
    });
  }, 120_000);

  test("inspect queues a speculative plan and answers a readable summary with the run URL", async () => {
    const { create } = setup(driverBlock(server));
    const driver = await create("inspect-me");
    await driver.init(signal);
    await driver.render(inputsOf("a"), signal);
    const told: string[] = [];
    const plan = await driver.plan(signal, { output: (phase, chunk) => told.push(`${phase}:${chunk}`) });
    // Beyond CTS: the plan's log for the run record, its resources and time.
    expect(told.join("")).toMatch(/^plan:[\s\S]*Plan: 1 to add/);
    expect(plan.resources).toEqual([{ address: "module.inspect-me.terraform_data.ids", action: "create" }]);
    expect(plan.phases_ms).toEqual({ plan: expect.any(Number) });
    expect(plan.changesPresent).toBe(true);
    expect(plan.plan).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(plan.plan).toContain("+ module.inspect-me.terraform_data.ids (create)");
    expect(plan.url).toMatch(new RegExp(`^${server.url}/app/${server.organization}/workspaces/inspect-me/runs/run-`));
    const ws = await workspace(server, "inspect-me");
    // Nothing applied, no workspace variable written by an inspection.
    expect((await tfcApi(server, "GET", `/workspaces/${ws.id}/vars`)).body.data).toEqual([]);
    expect((await tfcApi(server, "GET", `/workspaces/${ws.id}/current-state-version`)).status).toBe(404);
  }, 120_000);

  test("provider settings are sensitive workspace variables written by a run, never by an inspection nor as a run's visible variables", async () => {
    const { factory, logger } = setup(driverBlock(server));
    const driver = await factory.create(task("with-provider", module.dir, { providers: ["terraform"] }), {
      driver: driverBlock(server), providers: [{ id: "terraform", name: "terraform", arguments: {}, task_env: {} }],
      consul: {} as never, workingDir: "", logger, inputs: [],
    });
    await driver.init(signal);
    await driver.render(inputsOf("p-1"), signal);
    const plan = await driver.plan(signal);
    expect(plan.changesPresent).toBe(true);
    const ws = await workspace(server, "with-provider");
    expect((await tfcApi(server, "GET", `/workspaces/${ws.id}/vars`)).body.data).toEqual([]);
    expect(logger.lines.find((l) => l.message.startsWith("inspect does not write workspace variables"))?.fields?.variables).toBe("terraform");
    const [run] = await runsOf(server, ws.id);
    expect(run.attributes.variables.map((v: any) => v.key)).toEqual(["services"]);
    await driver.apply(signal);
    expect(await stateIds(server, ws.id)).toEqual(["p-1"]);
    const vars = (await tfcApi(server, "GET", `/workspaces/${ws.id}/vars`)).body.data;
    expect(vars.map((v: any) => [v.attributes.key, v.attributes.sensitive, v.attributes.value]).sort()).toEqual([["services", false, expect.any(String)], ["terraform", true, null]]);
  }, 60_000);

  test("429 and 5xx answers are ridden out", async () => {
    const { create, logger } = setup(driverBlock(server));
    server.setFaults({ rateLimitEvery: 3, rateLimitResetSeconds: 0.2, serverErrorEvery: 4, uploadErrorEvery: 2 });
    try {
      const driver = await create("faulty");
      await driver.init(signal);
      await driver.render(inputsOf("f-1"), signal);
      await driver.apply(signal);
      // The second upload (the speculative one) errors: a new configuration version is uploaded.
      await driver.render(inputsOf("f-1", "f-2"), signal);
      expect((await driver.plan(signal)).plan).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    } finally {
      server.setFaults({});
    }
    const ws = await workspace(server, "faulty");
    expect(await stateIds(server, ws.id)).toEqual(["f-1"]);
    const retried = logger.lines.filter((l) => l.message === "request to HCP Terraform failed, retrying").map((l) => l.fields?.reason);
    expect(retried).toContain("HTTP 429");
    expect(retried).toContain("HTTP 503");
    expect(logger.lines.some((l) => l.message === "configuration version errored, uploading again")).toBe(true);
  }, 120_000);

  test("a wrong token fails at once with HCP Terraform's answer, and the token is never shown", async () => {
    const secret = "wrong.atlasv1.thisisnotthetoken";
    const { factory, logger } = setup(driverBlock(server, { token: "", organization: "" }), { TFC_TOKEN: secret, TFC_ORGANIZATION: server.organization });
    const error = await factory.verify!(driverBlock(server, { token: "", organization: "" }), signal).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/Cannot use organization "cts-dev" at .*: HCP Terraform answered 401: unauthorized/);
    expect((error as Error).message).not.toContain(secret);
    expect(JSON.stringify(logger.lines)).not.toContain(secret);
  });

  test("terraform_cloud_workspace: agent mode with a pool found by name, and the Terraform version", async () => {
    const pool = await tfcApi(server, "POST", `/organizations/${server.organization}/agent-pools`, { data: { type: "agent-pools", attributes: { name: "pool-a" } } });
    expect(pool.status).toBe(201);
    const { create } = setup(driverBlock(server));
    const driver = await create("agent-task", {
      terraform_cloud_workspace: { execution_mode: "agent", agent_pool_name: "pool-a", terraform_version: "1.11.4" },
    });
    await driver.init(signal);
    await driver.render(inputsOf("a-1"), signal);
    await driver.apply(signal);
    const ws = await workspace(server, "agent-task");
    expect(ws.attributes["execution-mode"]).toBe("agent");
    expect(ws.attributes["agent-pool-id"]).toBe(pool.body.data.id);
    expect(ws.attributes["terraform-version"]).toBe("1.11.4");
    // Back to remote (the block removed): the pool is cleared with the mode.
    const remote = await create("agent-task");
    await remote.init(signal);
    await remote.render(inputsOf("a-1"), signal);
    await remote.apply(signal);
    const after = await workspace(server, "agent-task");
    expect(after.attributes["execution-mode"]).toBe("remote");
    expect(after.attributes["agent-pool-id"]).toBeNull();
    const missing = await (await create("agent-task-2", { terraform_cloud_workspace: { execution_mode: "agent", agent_pool_name: "nope" } }))
      .init(signal).catch((e: Error) => e);
    expect(String(missing)).toContain(`organization "cts-dev" has no agent pool named "nope"`);
  }, 60_000);

  test("refuses a workspace on the denylist or outside the allowlist, naming the reason", async () => {
    const created = await tfcApi(server, "POST", `/organizations/${server.organization}/workspaces`, {
      data: { type: "workspaces", attributes: { name: "frozen-task", "tag-names": ["frozen"] } },
    });
    expect(created.status).toBe(201);
    const denied = setup(driverBlock(server, { workspaces: { tags_denylist: ["frozen"] } }));
    const error = await (await denied.create("frozen-task")).init(signal).catch((e: Error) => e);
    expect(String(error)).toContain(`Cannot use workspace "frozen-task" for task "frozen-task": it carries the tag "frozen", which tags_denylist refuses`);
    const allowed = setup(driverBlock(server, { workspaces: { tags_allowlist: ["team:net"] } }));
    const error2 = await (await allowed.create("frozen-task")).init(signal).catch((e: Error) => e);
    expect(String(error2)).toContain("it carries none of the tags of tags_allowlist (team:net)");
  });
});
