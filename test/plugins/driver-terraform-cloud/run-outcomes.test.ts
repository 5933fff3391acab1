/**
 * How the terraform-cloud driver reads a run's end, honestly, against the embedded HCP Terraform
 * server (real terraform): an apply error carries Terraform's own text and the run's URL; a
 * workspace that vanished is found or created again with a WARN; a run waiting for approval is not
 * a success until applied, makes way for newer inputs (CTS discards it), and says why it waits; a
 * lock or a policy override is a visible wait that a stop ends; inspect changes no workspace; a
 * provider's task_env reaches the run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DriverContext, ProviderConfig } from "../../../core/plugin-api/mod.ts";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { terraformRootModule } from "../../../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../../../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { until } from "../../../harness/until.ts";
import { captureLogger, type LoggedLine } from "../../../harness/driver-terraform/capture-logger.ts";
import { driverBlock, inputsOf, runsOf, stateIds, task, tfcApi, workspace } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

const signal = new AbortController().signal;
let server: TfcDevServer;
const dir = mkdtempSync(join(tmpdir(), "tfc-outcomes-"));
const envFile = join(dir, "env.txt");

beforeAll(async () => {
  server = await startTfcDevServer();
  // Each change replaces the resource, so its local-exec runs: it fails on demand and writes the
  // environment variable a provider's task_env sets.
  writeFileSync(join(dir, "main.tf"), `variable "services" {
  type = any
}
variable "fail" {
  type    = bool
  default = false
}
resource "terraform_data" "ids" {
  input            = { ids = sort(keys(var.services)) }
  triggers_replace = sort(keys(var.services))
  provisioner "local-exec" {
    command = var.fail ? "echo 'the module refuses this change' >&2; exit 3" : "printf '%s' \\"$GREETING\\" > '${envFile}'"
  }
}
`);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Setup {
  readonly lines: LoggedLine[];
  readonly stop: AbortController;
  /** What the driver told the task status, last first. */
  readonly waits: (string | undefined)[];
  newer: boolean;
}

async function driverFor(name: string, extra: Record<string, unknown> = {}, providers: ProviderConfig[] = []) {
  const setup: Setup = { lines: [], stop: new AbortController(), waits: [], newer: false };
  const logger = captureLogger(setup.lines, "driver.tfc");
  const factory = createTerraformCloudDriverFactory({
    http: createHttpClientFactory(), fs: createFileSystem(), logger, env: {}, rootModule: terraformRootModule,
    stopping: setup.stop.signal, waitLogIntervalMs: 200,
  });
  const ctx: DriverContext = {
    driver: driverBlock(server), providers, consul: {} as never, workingDir: "", logger, inputs: [],
    waiting: (reason) => void setup.waits.unshift(reason), newerRunQueued: () => setup.newer,
  };
  const driver = await factory.create(task(name, dir, extra), ctx);
  await driver.init(signal);
  return { driver, setup };
}

const wsOf = async (name: string) => (await workspace(server, name)) as { id: string; attributes: Record<string, unknown> };
const waitingFor = (setup: Setup, text: string) =>
  until(`a wait on "${text}"`, () => (setup.waits[0]?.includes(text) ? setup.waits[0] : undefined), 60_000);

describe("terraform-cloud run outcomes", () => {
  it("an apply error carries Terraform's own text and the run's URL", async () => {
    const { driver } = await driverFor("failing", { variables: { fail: "true" } });
    await driver.render(inputsOf("f-1"), signal);
    const error = await driver.apply(signal).then(() => undefined, (e: Error & { url?: string }) => e);
    expect(error?.message).toMatch(/^Cannot apply task "failing": run run-\w+ ended "errored" \(http:.*\/workspaces\/failing\/runs\/run-\w+\): Error: local-exec provisioner error/);
    expect(error?.message).toContain("the module refuses this change");
    expect(error?.url).toMatch(new RegExp(`/app/${server.organization}/workspaces/failing/runs/run-\\w+$`));
  }, 60_000);

  it("a workspace deleted by hand is created again on the next run, with a WARN", async () => {
    const { driver, setup } = await driverFor("vanishing");
    await driver.render(inputsOf("v-1"), signal);
    await driver.apply(signal);
    const first = await wsOf("vanishing");
    expect((await tfcApi(server, "DELETE", `/workspaces/${first.id}`)).status).toBe(204);
    await driver.render(inputsOf("v-1", "v-2"), signal);
    expect(await driver.apply(signal)).toMatchObject({ url: expect.any(String) });
    const again = await wsOf("vanishing");
    expect(again.id).not.toBe(first.id);
    expect(await stateIds(server, again.id)).toEqual(["v-1", "v-2"]);
    expect(setup.lines.find((line) => line.level === "WARN")?.message).toBe("workspace not found in HCP Terraform: finding or creating it again");
  }, 60_000);

  it("a run waiting for approval is not a success: it waits visibly and succeeds once applied", async () => {
    const { driver, setup } = await driverFor("approved");
    await driver.render(inputsOf("a-1"), signal);
    await driver.apply(signal);
    const ws = await wsOf("approved");
    await tfcApi(server, "PATCH", `/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { "auto-apply": false } } });
    await driver.render(inputsOf("a-1", "a-2"), signal);
    let settled = false;
    const applying = driver.apply(signal).finally(() => (settled = true));
    const reason = await waitingFor(setup, "waiting for approval");
    expect(reason).toMatch(/^run run-\w+ waiting for approval \(http:.*\/runs\/run-\w+\)$/);
    // Said at once at INFO, with the reason (a wait on a person).
    expect(setup.lines.find((line) => line.message === "run is waiting in HCP Terraform")?.fields).toMatchObject({ reason: "waiting for approval", workspace_name: "approved" });
    expect(settled).toBe(false);
    const [waiting] = await runsOf(server, ws.id);
    expect((await tfcApi(server, "POST", `/runs/${waiting.id}/actions/apply`, {})).status).toBe(202);
    expect(await applying).toMatchObject({ url: expect.stringContaining(waiting.id), summary: expect.any(Object) });
    expect(await stateIds(server, ws.id)).toEqual(["a-1", "a-2"]);
    expect(setup.waits[0]).toBeUndefined();
  }, 60_000);

  it("a run waiting for approval makes way for newer inputs: discarded, reported as not applied (CTS discards it too)", async () => {
    const { driver, setup } = await driverFor("superseded");
    await driver.render(inputsOf("s-1"), signal);
    await driver.apply(signal);
    const ws = await wsOf("superseded");
    await tfcApi(server, "PATCH", `/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { "auto-apply": false } } });
    await driver.render(inputsOf("s-1", "s-2"), signal);
    const applying = driver.apply(signal);
    await waitingFor(setup, "waiting for approval");
    setup.newer = true;
    const result = await applying;
    expect(result?.unapplied).toMatch(/^run run-\w+ was "(planned|cost_estimated)", waiting for a person, when newer inputs arrived: it is discarded and the next run replaces it/);
    const [stale] = await runsOf(server, ws.id);
    expect(stale.attributes.status).toBe("discarded");
    expect(result?.url).toContain(stale.id);
  }, 60_000);

  it("inspect writes nothing to an existing workspace, and creates a missing one empty (as CTS does when a task starts)", async () => {
    const { driver } = await driverFor("inspected");
    await driver.render(inputsOf("i-1"), signal);
    await driver.apply(signal);
    const before = await wsOf("inspected");
    const current = (before as any).relationships["current-configuration-version"].data.id;
    const vars = (await tfcApi(server, "GET", `/workspaces/${before.id}/vars`)).body.data;
    const { driver: inspector } = await driverFor("inspected");
    await inspector.render(inputsOf("i-1", "i-2"), signal);
    expect((await inspector.plan(signal)).changesPresent).toBe(true);
    const after = await wsOf("inspected");
    expect((after as any).relationships["current-configuration-version"].data.id).toBe(current);
    expect((await tfcApi(server, "GET", `/workspaces/${after.id}/vars`)).body.data).toEqual(vars);
    const versions = (await tfcApi(server, "GET", `/workspaces/${after.id}/configuration-versions`)).body.data;
    expect(versions.filter((cv: any) => !cv.attributes.speculative).length).toBe(1);

    const { driver: fresh } = await driverFor("inspected-new");
    await fresh.render(inputsOf("n-1"), signal);
    await fresh.plan(signal);
    const created = await wsOf("inspected-new");
    expect((await tfcApi(server, "GET", `/workspaces/${created.id}/vars`)).body.data).toEqual([]);
    const createdVersions = (await tfcApi(server, "GET", `/workspaces/${created.id}/configuration-versions`)).body.data;
    expect(createdVersions.map((cv: any) => cv.attributes.speculative)).toEqual([true]);
    expect((await tfcApi(server, "GET", `/workspaces/${created.id}/current-state-version`)).status).toBe(404);
  }, 60_000);

  it("a provider's task_env reaches the run as a sensitive environment variable", async () => {
    const provider: ProviderConfig = { id: "terraform", name: "terraform", arguments: {}, task_env: { GREETING: "hello from task_env" } };
    const { driver } = await driverFor("with-env", { providers: ["terraform"] }, [provider]);
    await driver.render(inputsOf("e-1"), signal);
    await driver.apply(signal);
    expect(readFileSync(envFile, "utf8")).toBe("hello from task_env");
    const vars = (await tfcApi(server, "GET", `/workspaces/${(await wsOf("with-env")).id}/vars`)).body.data;
    expect(vars.find((v: any) => v.attributes.key === "GREETING").attributes).toMatchObject({ category: "env", sensitive: true, value: null });
  }, 60_000);
});

// The policy override is a server-wide fault (setFaults): kept apart from the others.
describe("terraform-cloud waits on a lock and a policy override", () => {
  it("a locked workspace and a policy override are visible waits; a stop ends them and leaves the run", async () => {
    const { driver, setup } = await driverFor("locked");
    await driver.render(inputsOf("l-1"), signal);
    await driver.apply(signal);
    const ws = await wsOf("locked");
    await tfcApi(server, "POST", `/workspaces/${ws.id}/actions/lock`, { reason: "maintenance" });
    await driver.render(inputsOf("l-1", "l-2"), signal);
    const applying = driver.apply(signal);
    expect(await waitingFor(setup, "workspace locked by")).toContain("workspace locked by user user-tfc-dev: maintenance");
    await until("the lock logged", () => setup.lines.find((line) => line.fields?.reason === "workspace locked by user user-tfc-dev: maintenance"));
    await tfcApi(server, "POST", `/workspaces/${ws.id}/actions/unlock`, {});
    await applying;
    expect(await stateIds(server, ws.id)).toEqual(["l-1", "l-2"]);

    server.setFaults({ policyOverride: true });
    try {
      await driver.render(inputsOf("l-1", "l-2", "l-3"), signal);
      const held = driver.apply(signal);
      await waitingFor(setup, "waiting for a policy override");
      setup.stop.abort();
      await expect(held).rejects.toThrow(/stopping while it was "policy_override" \(waiting for a policy override\); the run stays in HCP Terraform/);
    } finally {
      server.setFaults({});
    }
    expect((await runsOf(server, ws.id))[0].attributes.status).toBe("policy_override");
  }, 60_000);
});
