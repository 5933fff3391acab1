/**
 * Every kind of run record as the task and run pages show it (beyond CTS): a stand-in plugin
 * answers `GET /v1/tasks/nightly/runs` and `/runs/<id>` (ahead of the engine's routes) with fixed
 * records of the contract's shape: a failed run whose error is Terraform's whole output, an apply
 * whose change lists 100 instances and leaves 20 out, skips for each reason, a run in progress, an
 * inspection and a kind the page does not know; run pages of a run a hook cancelled, of one whose
 * hook failed after the apply and of an outcome the page does not know. Pages of 2 with a total and a next cursor.
 */
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definePlugin, httpRouterToken, type RunRecord } from "../../../core/plugin-api/mod.ts";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "../http-api/helpers/api-kernel.ts";
import { launchChromium, openPage, screenshot, seriousViolations, textOf, watchedPage } from "./browser-support.ts";

const started = (n: number) => new Date(Date.UTC(2026, 10, 26, 6, 0, n)).toISOString();
const id = (n: number) => `17962908${String(n).padStart(5, "0")}-0000000${n}`;
const base = { task: "nightly", instance_id: "cts-api-test", change: {} };
const terraformOutput = "Cannot apply task \"nightly\": terraform apply exited with 1: Error: provider refused the change\n\n  with module.nightly.x,\n  on main.tf line 3\nTerraform will perform the following actions:\n" +
  "  # module.nightly.x will be created\n".repeat(40);

const records: RunRecord[] = [
  { ...base, id: id(7), kind: "drift" as never, outcome: "planned", trigger: { kind: "schedule", detail: "0 3 * * *" }, started_at: started(7) },
  { ...base, id: id(6), outcome: "running", trigger: { kind: "api", detail: "enable run=now" }, started_at: started(6) },
  { ...base, id: id(5), kind: "inspect", outcome: "planned", trigger: { kind: "api", detail: "inspect" }, plan: { add: 1, change: 0, destroy: 0 }, started_at: started(5), ended_at: started(5), duration_ms: 800 },
  { ...base, id: id(4), outcome: "skipped", skip_reason: "disabled", trigger: { kind: "dependency", detail: "/v1/health/service/web" }, started_at: started(4), ended_at: started(4), duration_ms: 0 },
  { ...base, id: id(3), outcome: "skipped", skip_reason: "unchanged_inputs", trigger: { kind: "schedule", detail: "0 3 * * *" }, change: { services: { added: [], removed: [], changed: [] } }, started_at: started(3), ended_at: started(3), duration_ms: 0, event_id: "e3" },
  {
    ...base, id: id(2), outcome: "failed", trigger: { kind: "dependency", detail: "/v1/health/service/web" }, error: terraformOutput,
    change: { services: { added: [], removed: ["web-3"], changed: [] } }, started_at: started(2), ended_at: started(2), duration_ms: 1000,
  },
  {
    ...base, id: id(1), outcome: "applied", trigger: { kind: "dependency", detail: "/v1/health/service/web" }, plan: { add: 120, change: 0, destroy: 0 },
    change: { omitted: 20, services: { added: Array.from({ length: 100 }, (_, n) => `web-${n}`), removed: [], changed: [] } },
    started_at: started(1), ended_at: started(1), duration_ms: 250, phases_ms: { plan: 100, apply: 150 },
    logs: { plan: { text: "Plan: 120 to add\n", bytes: 70_017, omitted_bytes: 70_000 } },
    resources: [{ address: "module.nightly.x[0]", action: "create" }], resources_omitted: 1119,
  },
];

/** Records only their run pages show (not listed): a hook's veto, a hook failing after an apply, an outcome the page does not know. */
const hookRecords: RunRecord[] = [
  {
    ...base, id: id(8), outcome: "cancelled", trigger: { kind: "dependency", detail: "/v1/health/service/web" }, started_at: started(8), ended_at: started(8), duration_ms: 40,
    error: "pre_apply hook \"pre_apply\" said no: exit code 3",
    hooks: [{ name: "pre_apply", outcome: "failed", exit_code: 3, output: "change window closed\n", output_omitted: 12, error: "exit code 3", duration_ms: 35 }],
  },
  {
    ...base, id: id(9), outcome: "applied", trigger: { kind: "api", detail: "run=now" }, started_at: started(9), ended_at: started(9), duration_ms: 900, hooks_failed: true,
    hooks: [
      { name: "pre_apply", outcome: "ok", exit_code: 0, duration_ms: 10 },
      { name: "post_apply[1]", outcome: "timed_out", error: "stopped at its time limit of 5s", duration_ms: 5000 },
    ],
  },
  { ...base, id: id(10), outcome: "paused" as never, kind: "rollback" as never, trigger: { kind: "api" }, started_at: started(10) },
];

const standIn = definePlugin({
  id: "run-history-stand-in",
  kind: "api",
  deps: { router: httpRouterToken },
  init({ router }) {
    router.intercept((request) => {
      const url = new URL(request.url);
      if (url.pathname === "/v1/tasks/fallback/runs") return Response.json({ error: { message: "store unreachable" } }, { status: 500 });
      const one = /^\/v1\/tasks\/nightly\/runs\/(.+)$/.exec(url.pathname);
      if (one) {
        const run = [...records, ...hookRecords].find((record) => record.id === one[1]);
        return run ? Response.json({ run }) : Response.json({ error: { message: "no such run" } }, { status: 404 });
      }
      if (url.pathname !== "/v1/tasks/nightly/runs") return undefined;
      const before = url.searchParams.get("before");
      const older = records.filter((record) => !before || record.id < before);
      const limit = 2;
      const runs = older.slice(0, limit).map(({ logs: _logs, resources: _r, resources_omitted: _o, ...summary }) => summary);
      return Response.json({ runs, total: 1234, ...(older.length > limit ? { next: runs[runs.length - 1]!.id } : {}) });
    });
  },
});

describe("status page: every kind of run record", () => {
  let daemon: ApiKernel;
  let browser: Browser;

  beforeAll(async () => {
    const config = apiConfig({
      tasks: [
        testTask("nightly", { driver: "recording", condition: { type: "schedule", cron: "0 3 * * *" } }),
        testTask("fallback", { driver: "recording", condition: { type: "schedule", cron: "0 3 * * *" } }),
      ],
    });
    daemon = await startApiKernel({ config, extraPlugins: ["status-page"], plugins: [standIn] });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  /** The rows of the task page's runs table, following the pager's "Older runs" links. */
  async function allRows(page: import("puppeteer-core").Page): Promise<string[]> {
    const rows: string[] = [];
    await openPage(page, `${daemon.url}/ui/tasks/nightly`);
    for (;;) {
      await page.waitForSelector(".run-table");
      rows.push(...await page.$$eval(".run-table tbody tr", (trs) => trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, " "))));
      expect(await textOf(page, "section:has(.run-table) h2")).toBe("Runs (1,234 in all)");
      const older = await page.$(".pager a:last-child");
      if (!older || (await older.evaluate((a) => a.textContent)) !== "Older runs") break;
      await Promise.all([page.waitForNavigation(), older.click()]);
      await page.waitForSelector("#page[data-loaded]");
      expect(new URL(page.url()).searchParams.get("before")).toMatch(/^\d{13}-/);
    }
    return rows;
  }

  it("pages all runs with their total; a failure is one line; skips say why; unknown kinds by name", async () => {
    const page = (await watchedPage(browser)).page;
    const rows = await allRows(page);
    expect(rows).toHaveLength(7);
    expect(rows[0]).toMatch(/planned drift schedule: 0 3 \* \* \*/);
    expect(rows[1]).toMatch(/running apply api: enable run=now .* in progress/);
    expect(rows[2]).toMatch(/planned inspection \(plan only\) api: inspect .*\+1 ~0 −0/);
    expect(rows[3]).toMatch(/skipped skipped: the task is disabled apply dependency/);
    expect(rows[4]).toMatch(/skipped skipped: the inputs equal the last successful run's apply schedule/);
    // A failed run: the first line of its error, never Terraform's output.
    expect(rows[5]).toMatch(/failed Cannot apply task "nightly": terraform apply exited with 1: Error: provider refused the change apply/);
    expect(rows[5]).not.toMatch(/will be created/);
    expect(rows[6]).toMatch(/applied apply .* 100 added, and 20 more \+120 ~0 −0 250 ms/);
    await screenshot(page, "records-task");
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it("a run page says how much was left out of the change, the resources and the output", async () => {
    const page = (await watchedPage(browser)).page;
    await openPage(page, `${daemon.url}/ui/tasks/nightly/runs/${id(1)}`);
    const text = await textOf(page, "main");
    expect(text).toMatch(/service instance added: web-99\n… and 20 more entries not listed \(a list keeps 100\)/);
    expect(text).toMatch(/… and 1,119 more resources not listed/);
    expect(text).toMatch(/68\.4 KiB of output; 68\.4 KiB left out in the middle/);
    expect(text).toMatch(/Duration\s+250 ms \(plan 100 ms · apply 150 ms\)/);
    await openPage(page, `${daemon.url}/ui/tasks/nightly/runs/${id(4)}`);
    expect(await textOf(page, "main")).toMatch(/Why skipped\s+skipped: the task is disabled/);
    expect(await textOf(page, "main")).not.toMatch(/no input change/);
    await openPage(page, `${daemon.url}/ui/tasks/nightly/runs/${id(2)}`);
    expect(await textOf(page, "pre[aria-label='Error']")).toContain("module.nightly.x will be created");
    await screenshot(page, "records-run-failed");
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it("a run page shows the hooks' reports, a hook's veto as a cancelled run, and outcomes and kinds it does not know by name", async () => {
    const page = (await watchedPage(browser)).page;
    await openPage(page, `${daemon.url}/ui/tasks/nightly/runs/${id(8)}`);
    const cancelled = await textOf(page, "main");
    expect(cancelled).toMatch(/Outcome\s+cancelled apply/);
    expect(cancelled).toMatch(/Why it was cancelled\npre_apply hook "pre_apply" said no: exit code 3/);
    expect(cancelled).toContain("A hook before the apply said no: the run was cancelled and nothing was applied.");
    const row = await page.$eval("table.hooks tbody tr", (tr) => (tr as HTMLElement).innerText.replace(/\s+/g, " ").trim());
    expect(row).toBe("pre_apply failed exit code 3 3 35 ms … 12 characters left out … change window closed");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "records-run-cancelled");

    await openPage(page, `${daemon.url}/ui/tasks/nightly/runs/${id(9)}`);
    expect(await textOf(page, "main")).toContain("A hook after the apply failed; the run's outcome stands.");
    const rows = await page.$$eval("table.hooks tbody tr", (trs) => trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, " ").trim()));
    expect(rows).toEqual(["pre_apply ok 0 10 ms none", "post_apply[1] timed_out stopped at its time limit of 5s — 5.0 s none"]);

    await openPage(page, `${daemon.url}/ui/tasks/nightly/runs/${id(10)}`);
    expect(await textOf(page, "h1")).toBe("rollback of nightly");
    expect(await textOf(page, "main")).toMatch(/Outcome\s+paused rollback/);
  }, 60_000);

  it("one tab goes from page to page many times: each page ends its event stream when the browser leaves it", async () => {
    // A browser opens six connections to one host: streams left open would stall the seventh page.
    const page = (await watchedPage(browser)).page;
    for (let n = 0; n < 8; n++) {
      await openPage(page, `${daemon.url}${n % 2 ? "/ui/tasks/nightly" : `/ui/tasks/nightly/runs/${id(n)}`}`);
    }
    expect(await textOf(page, "h1")).toBe("Task nightly");
  }, 60_000);

  it("when the run history cannot be read, the task page says why", async () => {
    const page = (await watchedPage(browser)).page;
    await openPage(page, `${daemon.url}/ui/tasks/fallback`);
    expect(await textOf(page, "main")).toMatch(/Cannot read the run history: store unreachable/);
  }, 30_000);
});
