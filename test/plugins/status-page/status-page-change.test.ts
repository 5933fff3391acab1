/**
 * Issue 29 from the status page, in Debian's Chromium against the real daemon (`node dist/main.js
 * start`), the embedded Consul and the real Terraform with a module that writes a file per task
 * (test/helpers/file-module.ts): drift of a file changed by hand shown live on the task page, as a
 * badge on the overview and on the drift check's run page; delete from the page as CTS deletes
 * (the file stays) and with destroy (the destroy plan first, then a second confirmation; the file
 * goes); a failed destroy's error in the API's words, the task kept and its run page listing the
 * resources left; a change of the task's configuration planned and applied from the page, and a
 * bad one refused with the API's error, changing nothing. Beyond CTS (no status page, no destroy,
 * no drift, no runtime update). One daemon and one browser for every case; screenshots in SCREENSHOTS.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { type DaemonProcess, startDaemonProcess } from "../../helpers/api-daemon-process.ts";
import { FILE_MODULE } from "../../helpers/file-module.ts";
import { until } from "../../../harness/until.ts";
import { registerService } from "../../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";
import { launchChromium, openPage, screenshot, seriousViolations, textOf, watchedPage, type WatchedPage } from "./browser-support.ts";

const tmp = tempDir("status-change");
const TASKS = ["drifty", "stuck", "patchy"];
let consul: TestConsulDevServer;
let daemon: DaemonProcess;
let url = "";
let browser: Browser;
const pages: WatchedPage[] = [];
/** What the closed pages left: console errors and Content-Security-Policy violations. */
const problems: string[] = [];

const fileOf = (task: string) => join(tmp.path, `${task}.txt`);
const read = (task: string) => (existsSync(fileOf(task)) ? readFileSync(fileOf(task), "utf8") : undefined);
const withLogs = () => `\n--- daemon output\n${daemon.logs().slice(-4000)}`;

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

// deno-lint-ignore no-explicit-any
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}${path}`, {
    method, ...(body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}
const runsOf = async (task: string): Promise<RunRecord[]> => (await api("GET", `/v1/tasks/${task}/runs?limit=100`)).json.runs;

/** The requests `page` sent, by method and URL. */
const sent = new Map<Page, { method: string; url: string }[]>();
const watchedRequests = (page: Page) => sent.get(page) ?? [];

async function browse(path: string): Promise<Page> {
  const watched = await watchedPage(browser);
  pages.push(watched);
  const requests: { method: string; url: string }[] = [];
  sent.set(watched.page, requests);
  watched.page.on("request", (request) => requests.push({ method: request.method(), url: request.url() }));
  await openPage(watched.page, `${url}${path}`);
  return watched.page;
}

/** Clicks the button of the page whose text is exactly `text`. */
async function click(page: Page, text: string): Promise<void> {
  const found = await page.evaluate((label) => {
    const button = [...document.querySelectorAll("button")].find((node) => node.textContent === label && !node.closest("[hidden]"));
    button?.click();
    return button !== undefined;
  }, text);
  expect(found, `a visible button "${text}"`).toBe(true);
}

/** Waits until the element matching `selector` has text that `pattern` matches; returns the text. */
function textMatching(page: Page, selector: string, pattern: RegExp, timeoutMs = 90_000): Promise<string> {
  return until(`${selector} to match ${pattern}${withLogs()}`, async () => {
    const text = await textOf(page, selector);
    return pattern.test(text) ? text : undefined;
  }, timeoutMs, 100);
}

const sectionText = (page: Page, heading: string) => page.evaluate((title) =>
  ([...document.querySelectorAll("main h2")].find((node) => node.textContent === title)?.closest("section") as HTMLElement | null)?.innerText ?? "", heading);

beforeAll(async () => {
  consul = await startConsulDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  mkdirSync(join(tmp.path, "module"), { recursive: true });
  writeFileSync(join(tmp.path, "module", "main.tf"), FILE_MODULE);
  daemon = await startDaemonProcess({
    dir: tmp.path, consulAddress: consul.address, env: terraformTestEnv(), body: `${taskHcl("drifty", `  drift_detection {
    interval = "1s"
  }`)}
${taskHcl("stuck", "", true)}
${taskHcl("patchy")}
`,
  });
  url = daemon.url;
  [browser] = await Promise.all([
    launchChromium(),
    until(`every task's file${withLogs()}`, () =>
      TASKS.every((task) => read(task) === "v1") && daemon.logs().includes("all tasks ran once") ? true : undefined, 120_000, 100),
  ]);
}, 150_000);

// A browser opens six connections to a host and each page holds an event stream: a case closes its pages.
afterEach(async () => {
  for (const watched of pages.splice(0)) {
    // The refused requests (the bad change's 400, the failed destroy's 500) are the browser's only complaints.
    problems.push(...watched.problems.filter((problem) => !/^Failed to load resource: the server responded with a status of (400|500)/.test(problem)));
    problems.push(...await watched.cspViolations());
    await watched.page.close();
  }
});

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await consul?.stop();
  tmp.remove();
});

describe("issue 29 from the status page", () => {
  it("shows drift live on the task page, as a badge on the overview, and on the drift check's run page", async () => {
    const task = await browse("/ui/tasks/drifty");
    await textMatching(task, "#page", /no drift/);
    writeFileSync(fileOf("drifty"), "changed by hand");
    // The page was not reloaded: the task.drift event updated it.
    await task.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
    await textMatching(task, "#page", /drifted/);
    expect(await task.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
    const section = await sectionText(task, "Drift");
    expect(section).toContain("1 resource differs from what the task applied");
    expect(section).toContain("module.drifty.terraform_data.file");
    expect(section).toMatch(/Last check\s+drift check/);
    expect(section).toContain("Report only: nothing was changed");
    expect(read("drifty")).toBe("changed by hand");
    expect(await seriousViolations(task)).toEqual([]);
    await screenshot(task, "change-drift-task");

    const overview = await browse("/ui/");
    const badge = await overview.waitForSelector("tr a.badge.bad[aria-label^='drifted']");
    const href = await badge!.evaluate((node) => node.getAttribute("href"));
    const state = (await api("GET", "/v1/status/tasks/drifty")).json.drifty.drift;
    expect(href).toMatch(/^\/ui\/tasks\/drifty\/runs\/\d{13}-/);

    const run = await browse(href!);
    expect(await textOf(run, "h1")).toBe("Drift check of drifty");
    const finding = await sectionText(run, "Drift");
    expect(finding).toMatch(/checked: drift\s+1 resource differs/);
    expect(finding).toContain("module.drifty.terraform_data.file");
    expect(finding).toContain("replace");
    expect(await textOf(run, "dl.facts")).toMatch(/drift check \(plan only\)/);
    expect(state.status).toBe("drifted");
    expect(await seriousViolations(run)).toEqual([]);
    await screenshot(run, "change-drift-run");
    // Checks every second cost CPU the other cases need.
    expect((await api("PATCH", "/v1/tasks/drifty", { drift_detection: { enabled: false } })).status).toBe(200);
  }, 180_000);

  it("deletes with destroy: the destroy plan first, then a second confirmation; the task and its file go", async () => {
    const page = await browse("/ui/tasks/drifty");
    await click(page, "Delete…");
    await page.click("input[type=checkbox]");
    await click(page, "Show the destroy plan");
    const plan = await textMatching(page, "pre.destroy-plan", /will be destroyed/);
    expect(plan).toContain("module.drifty.terraform_data.file will be destroyed");
    // The plan changed nothing.
    expect(read("drifty")).toBe("changed by hand");
    expect((await api("GET", "/v1/tasks/drifty")).status).toBe(200);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "change-destroy-plan");
    await click(page, "Destroy the resources and delete the task");
    await textMatching(page, "#page", /Task drifty was deleted, after its resources were destroyed\./);
    expect(await page.$eval("#page > p > a[href='/ui/']", (node) => node.textContent)).toBe("Back to all tasks");
    expect(read("drifty")).toBeUndefined();
    expect((await api("GET", "/v1/tasks/drifty")).status).toBe(404);
  }, 120_000);

  it("a failed destroy shows the API's error and keeps the task; its run page lists the resources left", async () => {
    const page = await browse("/ui/tasks/stuck");
    await click(page, "Delete…");
    await page.click("input[type=checkbox]");
    await click(page, "Show the destroy plan");
    await textMatching(page, "pre.destroy-plan", /will be destroyed/);
    await click(page, "Destroy the resources and delete the task");
    const message = await textMatching(page, ".confirm-panel [role=alert]", /Cannot destroy and delete/);
    const destroy = await until("the destroy's record", async () => (await runsOf("stuck")).find((run) => run.kind === "destroy"));
    // The API's words, as the destroy's record keeps them.
    expect(message).toContain(`Cannot destroy and delete: Cannot destroy task "stuck"`);
    expect(message).toContain("module.stuck.terraform_data.file");
    expect(destroy).toMatchObject({ outcome: "failed", resources_left: ["module.stuck.terraform_data.file"] });
    expect((await api("GET", "/v1/tasks/stuck")).status).toBe(200);
    expect(read("stuck")).toBe("v1");
    // The button asks for a new plan before another try.
    expect(await page.evaluate(() => [...document.querySelectorAll("button")].some((b) => b.textContent === "Show the destroy plan"))).toBe(true);

    const run = await browse(`/ui/tasks/stuck/runs/${destroy.id}`);
    expect(await textOf(run, "h1")).toBe("Destroy of stuck");
    expect(await sectionText(run, "Resources left")).toContain("module.stuck.terraform_data.file");
    expect(await sectionText(run, "Error")).toContain(`Cannot destroy task "stuck"`);
    expect(await seriousViolations(run)).toEqual([]);
    await screenshot(run, "change-destroy-failed-run");
  }, 120_000);

  it("changes a task from the page: a bad change is refused in the API's words and changes nothing; plan, then apply", async () => {
    const page = await browse("/ui/tasks/patchy");
    await click(page, "Edit…");
    const text = await until("the configuration in the text area", async () => (await page.$eval("textarea", (node) => (node as HTMLTextAreaElement).value)) || undefined);
    const shown = JSON.parse(text);
    const task = (await api("GET", "/v1/tasks/patchy")).json.task;
    expect(shown).toEqual(task);
    expect(await page.$eval("textarea", (node) => (node.labels?.[0]?.textContent ?? ""))).toBe("Configuration of patchy (JSON)");
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("TEXTAREA");
    const runs = await runsOf("patchy");
    const edit = (value: unknown) => page.$eval("textarea", (node, json) => ((node as HTMLTextAreaElement).value = json), JSON.stringify(value, null, 2));

    // Not JSON: refused on the page, nothing sent.
    await page.$eval("textarea", (node) => ((node as HTMLTextAreaElement).value = "{ not json"));
    await click(page, "Apply the change");
    expect(await textMatching(page, ".confirm-panel [role=alert]", /not JSON/)).toContain("Nothing was sent.");
    expect(watchedRequests(page).some((request) => request.method === "PATCH")).toBe(false);
    // A changed field holding the daemon's mask of a secret would replace the secret with the mask: refused, nothing sent.
    await edit({ ...task, variables: { ...task.variables, token: "<redacted>" } });
    await click(page, "Apply the change");
    expect(await textMatching(page, ".confirm-panel [role=alert]", /Cannot send variables: it holds <redacted>/)).toContain("Nothing was sent.");
    expect(watchedRequests(page).some((request) => request.method === "PATCH")).toBe(false);
    // A bad field: the API's 400, in its words, and nothing changed.
    const bad = { variables: { ...task.variables, content: 7 } };
    const direct = await api("PATCH", "/v1/tasks/patchy?run=now", bad);
    expect(direct.status).toBe(400);
    await edit({ ...task, ...bad });
    await click(page, "Apply the change");
    const refused = await textMatching(page, ".confirm-panel [role=alert]", /Cannot apply the change/);
    expect(refused).toBe(`Cannot apply the change: ${direct.json.error.message}`);
    expect(refused).toContain("variables");
    expect(await page.$eval("textarea", (node) => node.getAttribute("aria-invalid"))).toBe("true");
    expect((await api("GET", "/v1/tasks/patchy")).json.task).toEqual(task);
    expect(await runsOf("patchy")).toEqual(runs);
    expect(read("patchy")).toBe("v1");

    // Plan: the change's plan, nothing changed.
    const changed = { ...task, variables: { ...task.variables, content: `"v2"` } };
    await edit(changed);
    await click(page, "Plan the change");
    expect(await textMatching(page, "pre.change-plan", /"v1" -> "v2"/)).toContain("module.patchy.terraform_data.file");
    expect(await textOf(page, ".confirm-panel [role=status]")).toBe("The plan of the change is below. Nothing was changed yet.");
    expect(read("patchy")).toBe("v1");
    expect((await api("GET", "/v1/tasks/patchy")).json.task).toEqual(task);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "change-edit-plan");

    // Apply: once, with the new value, the history kept.
    await click(page, "Apply the change");
    await textMatching(page, ".confirm-panel [role=status]", /Change applied/);
    expect(read("patchy")).toBe("v2");
    // The run's record is stored as its run ends, which the API's answer may precede by a moment.
    const after = await until(`the change's run record ${withLogs()}`, async () => {
      const all = await runsOf("patchy");
      return all.length > runs.length ? all : undefined;
    });
    expect(after.slice(1)).toEqual(runs);
    expect(after[0]).toMatchObject({ outcome: "applied", trigger: { kind: "api", detail: "update run=now" } });
    expect((await api("GET", "/v1/tasks/patchy")).json.task.variables.content).toBe(`"v2"`);
    await textMatching(page, ".run-table tbody tr", /applied[\s\S]*api: update run=now/);
  }, 180_000);

  it("deletes as CTS does when destroy is not chosen: the task goes, its file stays", async () => {
    const page = await browse("/ui/tasks/patchy");
    await click(page, "Delete…");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("type"))).toBe("checkbox");
    // Nothing is sent before the confirmation.
    expect((await api("GET", "/v1/tasks/patchy")).status).toBe(200);
    await click(page, "Delete the task");
    await textMatching(page, "#page", /Task patchy was deleted; its resources were left as they are\./);
    await until("patchy to be gone", async () => ((await api("GET", "/v1/tasks/patchy")).status === 404 ? true : undefined));
    expect(read("patchy")).toBe("v2");
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it("no page saw a console error or a Content-Security-Policy violation", () => {
    expect(problems).toEqual([]);
  });
});
