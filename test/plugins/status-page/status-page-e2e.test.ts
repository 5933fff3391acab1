/**
 * The status page against the real daemon (`node dist/main.js start`), the embedded Consul and the
 * real Terraform, in Debian's Chromium (beyond CTS, which has no status page): the overview, a task
 * page and the run pages of a successful, a failed, a skipped and a running run; resources and
 * outputs as Terraform reports them (a sensitive output never shown); the live output of a running
 * apply; each action from the page (run now, inspect, enable, disable); axe-core finds no serious
 * violation on any page. Screenshots stay in SCREENSHOTS (browser-support.ts).
 */
import type { ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import { spawnCli } from "../../../harness/run-cli.ts";
import { until } from "../../../harness/until.ts";
import { registerService } from "../../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";
import {
  launchChromium, openPage, screenshot, seriousViolations, textOf, watchedPage, type WatchedPage,
} from "./browser-support.ts";

const modules = join(import.meta.dirname, "modules");
const driverModules = join(import.meta.dirname, "..", "driver-terraform", "modules");
const tmp = tempDir("status-e2e");
const hold = join(tmp.path, "hold");
let consul: TestConsulDevServer;
let daemon: ChildProcess;
let output = "";
let base = "";
let browser: Browser;
const watched: WatchedPage[] = [];
/** What every page, once closed, left: requests elsewhere, console errors, policy violations. */
const leftovers = { elsewhere: [] as string[], problems: [] as string[], violations: [] as string[] };

function config(port: number): string {
  writeFileSync(join(tmp.path, "slow.tfvars"), `hold_file = ${JSON.stringify(hold)}\n`);
  const task = (name: string, module: string, service: string, extra = "") => `task {
  name   = "${name}"
  module = ${JSON.stringify(module)}
  ${extra}
  condition "services" {
    names = ["${service}"]
  }
}
`;
  return `log_level   = "INFO"
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
${task("ok_task", join(driverModules, "outputs"), "web")}
${task("failing_task", join(modules, "fails-with-instances"), "broken")}
${task("off_task", join(driverModules, "outputs"), "web", "enabled = false")}
${task("slow_task", join(modules, "slow-log"), "slow", `variable_files = [${JSON.stringify(join(tmp.path, "slow.tfvars"))}]`)}`;
}

async function api<T>(path: string, init?: RequestInit): Promise<{ status: number; json: T }> {
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, json: (await response.json()) as T };
}

async function runsOf(task: string): Promise<RunRecord[]> {
  return (await api<{ runs: RunRecord[] }>(`/v1/tasks/${task}/runs?limit=100`)).json.runs ?? [];
}

/** Waits until `task` has a record that `match` accepts, and returns it. */
function runOf(task: string, what: string, match: (run: RunRecord) => boolean, timeoutMs = 60_000): Promise<RunRecord> {
  return until(`${task}: ${what}\n${output.slice(-3000)}`, async () => (await runsOf(task)).find(match), timeoutMs, 150);
}

async function browse(viewport?: { width: number; height: number; isMobile?: boolean }): Promise<Page> {
  const one = await watchedPage(browser, viewport);
  watched.push(one);
  return one.page;
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

beforeAll(async () => {
  consul = await startConsulDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const path = join(tmp.path, "cts.hcl");
  writeFileSync(path, config(port));
  daemon = spawnCli("node", ["start", `-config-file=${path}`], { cwd: tmp.path, env: terraformTestEnv() });
  daemon.stdout!.on("data", (chunk) => (output += chunk));
  daemon.stderr!.on("data", (chunk) => (output += chunk));
  await until(`the start-up runs\n${output.slice(-3000)}`, async () => {
    const done = await fetch(`${base}/v1/tasks/slow_task/runs`).then((r) => r.ok ? r.json() : undefined, () => undefined);
    return done?.runs?.some((run: RunRecord) => run.outcome === "applied") ? true : undefined;
  }, 120_000, 200);
  browser = await launchChromium();
}, 180_000);

// A page keeps its event stream open, and Chromium opens at most 6 connections to one host.
afterEach(async () => {
  const origin = new URL(base).origin;
  for (const one of watched.splice(0)) {
    leftovers.elsewhere.push(...one.requests.filter((url) => new URL(url).origin !== origin));
    leftovers.problems.push(...one.problems);
    leftovers.violations.push(...await one.cspViolations().catch(() => []));
    await one.page.close();
  }
});

afterAll(async () => {
  await browser?.close();
  daemon?.kill("SIGTERM");
  await new Promise((resolve) => (daemon?.exitCode !== null ? resolve(undefined) : daemon.once("exit", resolve)));
  await consul?.stop();
  rmSync(hold, { force: true });
  tmp.remove();
});

describe("status page on the real daemon, Consul and Terraform", () => {
  it("overview: a status summary, filters kept in the URL, each task's last run linked; a failure is one line and a link", async () => {
    await registerService(consul.url, "broken-1", "broken", "10.0.0.9");
    const failed = await runOf("failing_task", "a failed run", (run) => run.outcome === "failed");
    const page = await browse();
    await openPage(page, `${base}/ui/`);
    await page.waitForFunction(() => document.querySelectorAll(".task-table tbody tr").length === 4);
    // off_task never ran: its status is unknown.
    expect(await textOf(page, ".summary")).toMatch(/4 tasks\s+successful\s*2\s+errored\s*1\s+unknown\s*1\s+disabled\s*1/);
    const row = await page.$eval("tr[data-status=errored]", (node) => ({
      text: (node as HTMLElement).innerText, link: node.querySelector("a[href*='/runs/']")?.getAttribute("href"),
    }));
    expect(row.text).toMatch(/failing_task[\s\S]*failed[\s\S]*Cannot apply task "failing_task": terraform apply exited with 1: Error: local-exec provisioner error/);
    // One line: none of Terraform's output beyond the error's first line.
    expect(row.text).not.toMatch(/boom|Terraform will perform/);
    expect(row.link).toBe(`/ui/tasks/failing_task/runs/${failed.id}`);
    await expectAccessible(page);
    await screenshot(page, "e2e-overview");

    await page.select(".filters select", "errored");
    expect(await page.$$eval(".task-table tbody tr th a", (links) => links.map((a) => a.textContent))).toEqual(["failing_task"]);
    expect(new URL(page.url()).search).toBe("?status=errored");
    await page.select(".filters select", "");
    await page.type(".filters input[type=search]", "ok_");
    expect(await page.$$eval(".task-table tbody tr th a", (links) => links.map((a) => a.textContent))).toEqual(["ok_task"]);
    // The filtered view is a permalink.
    await openPage(page, `${base}/ui/?status=disabled`);
    await page.waitForFunction(() => document.querySelectorAll(".task-table tbody tr").length === 1);
    expect(await textOf(page, ".task-table tbody")).toMatch(/off_task/);
  }, 120_000);

  it("a task page: status, configuration in brief, outputs (a sensitive one named, never shown), runs with their total", async () => {
    const page = await browse();
    await openPage(page, `${base}/ui/tasks/ok_task`);
    await page.waitForSelector(".run-table tbody tr");
    const text = await textOf(page, "main");
    expect(await textOf(page, "h1")).toBe("Task ok_task");
    expect(text).toMatch(/Module\s+\S*driver-terraform\/modules\/outputs/);
    expect(text).toMatch(/Condition\s+services: names = web/);
    // Values as JSON, as Terraform's outputs are.
    expect(text).toContain('"quote \\" backslash \\\\ dollar ${x} percent %{y} tab \\t é ✓ <tag>"');
    expect(text).toMatch(/password\s+sensitive: not shown/);
    expect(text).not.toContain("hunter2");
    // The API behind it: GET /v1/tasks/<name> carries the last successful apply's outputs beside CTS's task.
    const read = await api<{ task: { name: string }; outputs: Record<string, unknown>; outputs_run_id: string }>("/v1/tasks/ok_task");
    expect(read.json.outputs).toMatchObject({ addresses: { value: ["10.0.0.1"] }, password: { sensitive: true } });
    expect(read.json.outputs_run_id).toMatch(/^\d{13}-/);
    const total = (await runsOf("ok_task")).length;
    expect(await textOf(page, "h2:has(+ div .run-table), section:has(.run-table) h2")).toBe(`Runs (${total} in all)`);
    await expectAccessible(page);
    await screenshot(page, "e2e-task");
  }, 60_000);

  it("a successful run's page: why it ran, resources by address and action, outputs, plan and apply output, time by phase", async () => {
    const page = await browse();
    await openPage(page, `${base}/ui/tasks/ok_task`);
    await page.waitForSelector(".run-table tbody tr th a");
    // The permalink from the task page's list.
    await Promise.all([page.waitForNavigation(), page.click(".run-table tbody tr th a")]);
    await page.waitForSelector("#page[data-loaded] .log");
    const text = await textOf(page, "main");
    expect(text).toMatch(/Outcome\s+applied apply/);
    expect(text).toMatch(/Why it ran\s+startup/);
    expect(text).toMatch(/service instance added: web-1\./);
    expect(text).toMatch(/Duration\s+.*\(plan .* · apply .*\)/);
    expect(text).toMatch(/Initialisation\s+.* \(the driver's, before the run\)/);
    const resources = await page.$$eval("table.kv-table tbody tr", (rows) => rows.map((row) => (row as HTMLElement).innerText.replace(/\s+/g, " ")));
    expect(resources).toContain('module.ok_task.terraform_data.each["web-1.consul-dev.dc1"] create');
    expect(resources).toContain("addresses [ \"10.0.0.1\" ]");
    expect(resources).toContain("password sensitive: not shown");
    expect(await textOf(page, "pre[aria-label='Plan output']")).toMatch(/will be created[\s\S]*Plan: 1 to add/);
    expect(await textOf(page, "pre[aria-label='Apply output']")).toMatch(/Apply complete! Resources: 1 added/);
    expect(text).not.toContain("hunter2");
    // What the page shows is the API's record.
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const { json } = await api<{ run: RunRecord }>(`/v1/tasks/ok_task/runs/${id}`);
    expect(json.run.resources).toEqual([{ address: 'module.ok_task.terraform_data.each["web-1.consul-dev.dc1"]', action: "create" }]);
    expect(json.run.outputs?.password).toEqual({ sensitive: true });
    expect(JSON.stringify(json)).not.toContain("hunter2");
    await expectAccessible(page);
    await screenshot(page, "e2e-run-applied");
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
    await screenshot(page, "e2e-run-applied-dark");
  }, 60_000);

  it("a failed run's page shows the error in full and Terraform's output", async () => {
    const failed = (await runsOf("failing_task")).find((run) => run.outcome === "failed")!;
    const page = await browse({ width: 390, height: 844, isMobile: true });
    await openPage(page, `${base}/ui/tasks/failing_task/runs/${failed.id}`);
    expect(await textOf(page, "pre[aria-label='Error']")).toMatch(/^Cannot apply task "failing_task": terraform apply exited with 1: Error: [\s\S]*boom: the module failed on purpose/);
    expect(await textOf(page, "pre[aria-label='Apply output']")).toMatch(/boom: the module failed on purpose/);
    expect(await textOf(page, "main")).toMatch(/service instance added: broken-1/);
    // What the failed apply had planned, from its saved plan (a retry replaces the tainted resource).
    expect(await textOf(page, "table.kv-table tbody")).toMatch(/^module\.failing_task\.terraform_data\.fail\[0\]\s+(create|replace)$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, "e2e-run-failed-phone");
  }, 60_000);

  it("a skipped run says why it was skipped", async () => {
    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    const skipped = await runOf("off_task", "a skipped run", (run) => run.outcome === "skipped");
    const page = await browse();
    await openPage(page, `${base}/ui/tasks/off_task`);
    await page.waitForSelector(".run-table tbody tr");
    expect(await textOf(page, ".run-table tbody tr")).toMatch(/skipped[\s\S]*skipped: the task is disabled[\s\S]*dependency/);
    await openPage(page, `${base}/ui/tasks/off_task/runs/${skipped.id}`);
    expect(await textOf(page, "main")).toMatch(/Why skipped\s+skipped: the task is disabled/);
    expect(await textOf(page, "main")).not.toMatch(/no input change/);
    await expectAccessible(page);
    await screenshot(page, "e2e-run-skipped");
  }, 60_000);

  it("a running apply's output appears on its page as it comes, then the finished run", async () => {
    writeFileSync(hold, "");
    await registerService(consul.url, "slow-1", "slow", "10.0.0.5");
    const running = await runOf("slow_task", "the run in progress", (run) => run.outcome === "running");
    const page = await browse();
    await openPage(page, `${base}/ui/`);
    // The overview links the run in progress.
    await page.waitForSelector(`a[href='/ui/tasks/slow_task/runs/${running.id}']`);
    await Promise.all([page.waitForNavigation(), page.click(`a[href='/ui/tasks/slow_task/runs/${running.id}']`)]);
    await page.waitForSelector("#page[data-loaded] .live-note");
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const log = () => textOf(page, "pre[aria-label='Apply output']");
    const working = (text: string) => (text.match(/progress: still working/g) ?? []).length;
    const first = await until("progress lines on the page", async () => {
      const count = working(await log());
      return count >= 2 ? count : undefined;
    }, 30_000, 100);
    // Still running, and more lines arrive without a reload.
    expect((await api<{ run: RunRecord }>(`/v1/tasks/slow_task/runs/${running.id}`)).json.run.outcome).toBe("running");
    await until("more progress lines", async () => (working(await log()) > first + 2 ? true : undefined), 30_000, 100);
    expect(await textOf(page, ".live-note")).toMatch(/In progress/);
    await screenshot(page, "e2e-run-running");
    rmSync(hold);
    await until("the finished run on the page", async () => (/applied/.test(await textOf(page, "dl.facts")) ? true : undefined), 60_000, 100);
    expect(await log()).toMatch(/progress: done[\s\S]*Apply complete!/);
    expect(await page.$(".live-note")).toBeNull();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // The stored record holds what the page showed live.
    const { json } = await api<{ run: RunRecord }>(`/v1/tasks/slow_task/runs/${running.id}`);
    expect(json.run.logs?.apply?.text).toContain("progress: still working");
    await expectAccessible(page);
  }, 120_000);

  it("actions from the task page: run now, inspect (its plan opens as a run page), enable and disable", async () => {
    const page = await browse();
    await openPage(page, `${base}/ui/tasks/ok_task`);
    const before = (await runsOf("ok_task")).length;
    const button = (label: string) => page.waitForSelector(`xpath///button[normalize-space()="${label}"]`);
    await (await button("Run now"))!.click();
    await until("the run from the page", async () => (/Run finished/.test(await textOf(page, ".action-message")) ? true : undefined), 60_000, 100);
    const runs = await runsOf("ok_task");
    expect(runs.length).toBe(before + 1);
    expect(runs[0]).toMatchObject({ outcome: "applied", trigger: { kind: "api" } });
    await until("the new run in the list", async () => ((await textOf(page, ".run-table tbody tr")).includes("api") ? true : undefined), 20_000, 100);

    await Promise.all([page.waitForNavigation({ timeout: 60_000 }), (await button("Inspect"))!.click()]);
    await page.waitForSelector("#page[data-loaded]");
    expect(new URL(page.url()).pathname).toMatch(/^\/ui\/tasks\/ok_task\/runs\/\d{13}-/);
    expect(await textOf(page, "h1")).toBe("Inspection of ok_task");
    expect(await textOf(page, "main")).toMatch(/Outcome\s+planned inspection/);
    expect(await textOf(page, "pre[aria-label='Plan output']")).toMatch(/No changes|Plan:/);
    await expectAccessible(page);
    await screenshot(page, "e2e-run-inspection");

    await openPage(page, `${base}/ui/tasks/off_task`);
    await (await button("Enable"))!.click();
    await until("enabled", async () => ((await api<{ task: { enabled: boolean } }>("/v1/tasks/off_task")).json.task.enabled ? true : undefined), 60_000, 100);
    // The daemon answers once the workspace is initialised again; the button waits for that.
    await page.waitForSelector(`xpath///button[normalize-space()="Disable" and @aria-disabled="false"]`);
    expect(await textOf(page, ".action-message")).toBe("Task enabled.");
    expect(await textOf(page, ".badges")).toMatch(/enabled/);
    await (await button("Disable"))!.click();
    await until("disabled", async () => (!(await api<{ task: { enabled: boolean } }>("/v1/tasks/off_task")).json.task.enabled ? true : undefined), 60_000, 100);
    await page.waitForSelector(`xpath///button[normalize-space()="Enable" and @aria-disabled="false"]`);
    expect(await textOf(page, ".action-message")).toBe("Task disabled.");
  }, 180_000);

  it("every page loaded nothing from elsewhere, broke no policy and logged no error", () => {
    expect(leftovers).toEqual({ elsewhere: [], problems: [], violations: [] });
  });
});
