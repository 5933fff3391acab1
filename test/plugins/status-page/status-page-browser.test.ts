/**
 * The status page in a real browser: Debian's Chromium (scripts/setup-chromium.sh), driven by
 * puppeteer-core (which never downloads one), against a daemon over real HTTP: the embedded Consul
 * server, the real engine (its run records and events) and the recording driver. Services tasks
 * run when Consul's data changes; "broken_task" always fails. Screenshots go to SCREENSHOTS
 * (browser-support.ts). Beyond CTS (CTS has no status page).
 */
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import type { Browser } from "puppeteer-core";
import { type TaskConfig } from "../../../core/plugin-api/mod.ts";
import { eventually } from "../../../core/plugin-testkit/src/eventually.ts";
import { testConsulConfig, testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "../http-api/helpers/api-kernel.ts";
import { registerInstance } from "../../../harness/task-engine/engine-harness.ts";
import { launchChromium, openPage, screenshot, seriousViolations, textOf, watchedPage, type WatchedPage } from "./browser-support.ts";

function servicesTask(name: string, service: string): TaskConfig {
  const base = testTask(name, { driver: "recording" });
  return { ...base, condition: { ...base.condition, names: [service] } as TaskConfig["condition"] };
}

/** The text of the overview's row of task `name`, or undefined while it is not shown. */
function rowText(page: Page, name: string): Promise<string | undefined> {
  return page.evaluate((task) => {
    const row = [...document.querySelectorAll(".task-table tbody tr")].find((node) => node.querySelector("th a")?.textContent === task);
    return (row as HTMLElement | undefined)?.innerText;
  }, name);
}

describe("status page in Chromium", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiKernel;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await registerInstance(consul.url, "web", "web-1");
    await registerInstance(consul.url, "db", "db-1");
    const config = apiConfig({
      consul: testConsulConfig({
        address: consul.address,
        kv_path: "",
        service_registration: { ...testConsulConfig().service_registration, enabled: false },
      }),
      tasks: [
        servicesTask("web_task", "web"),
        servicesTask("broken_task", "db"),
        testTask("nightly", { driver: "recording", description: "Cleans up at night", condition: { type: "schedule", cron: "0 3 * * *" } }),
      ],
    });
    daemon = await startApiKernel({ config, extraPlugins: ["status-page"], recording: { fail_tasks: ["broken_task"] } });
    await eventually(() => daemon.tasks.get("broken_task")?.events.length === 1, "the startup runs", 20_000);
    browser = await launchChromium();
    watched = await watchedPage(browser);
    page = watched.page;
    await openPage(page, `${daemon.url}/ui/`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await consul?.stop();
  });

  it("lists the tasks with status, last run, next run and the failing task's error in one line", async () => {
    await page.waitForFunction(() => document.querySelectorAll(".task-table tbody tr").length === 3, { timeout: 15_000 });
    expect(await rowText(page, "web_task")).toMatch(/successful[\s\S]*succeeded/);
    const broken = await rowText(page, "broken_task");
    expect(broken).toMatch(/errored[\s\S]*failed[\s\S]*configured to fail/);
    const nightly = await rowText(page, "nightly");
    expect(nightly).toMatch(/Cleans up at night/);
    const next = await page.evaluate(() => [...document.querySelectorAll("td[data-label='Next run'] time[datetime]")].map((node) => node.getAttribute("datetime")));
    expect(next).toHaveLength(1);
    expect(next[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00/);
    const aside = await textOf(page, "aside");
    expect(aside).toMatch(/Standalone/);
    expect(aside).toMatch(/connected/);
    await page.waitForFunction(() => document.getElementById("live-state")?.getAttribute("data-state") === "live", { timeout: 15_000 });
  });

  it("shows a new run after a service registration, without a reload, on the overview and the task page", async () => {
    const taskPage = (await watchedPage(browser)).page;
    await openPage(taskPage, `${daemon.url}/ui/tasks/web_task`);
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const lastRunLink = () => page.evaluate(() =>
      [...document.querySelectorAll(".task-table tbody tr")].find((row) => row.querySelector("th a")?.textContent === "web_task")?.querySelector("a[href*='/runs/']")?.getAttribute("href"));
    const before = await lastRunLink();
    expect(before).toMatch(/^\/ui\/tasks\/web_task\/runs\/\d{13}-/);
    await registerInstance(consul.url, "web", "web-2");
    await eventually(async () => (await lastRunLink()) !== before, "the new run in the overview", 20_000);
    await eventually(async () => (await taskPage.$$(".run-table tbody tr")).length === 2, "the new run on the task page", 20_000);
    expect(await textOf(taskPage, ".run-table tbody tr")).toMatch(/applied[\s\S]*dependency[\s\S]*1 added/);
    expect(await textOf(taskPage, "section:has(.run-table) h2")).toBe("Runs (2 in all)");
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // The update was announced to screen readers.
    await eventually(async () => /web_task/.test(await page.$eval("#announcer", (node) => node.textContent ?? "")), "an announcement");
    await taskPage.close();
  });

  it("shows the Consul connection lost and restored as it happens", async () => {
    const consulPanel = () => textOf(page, "#consul");
    const { port, snapshotPath } = consul;
    await consul.stop();
    await eventually(async () => /unreachable/.test(await consulPanel()), "the outage in the page", 20_000);
    expect(await consulPanel()).toMatch(/Cannot /);
    consul = await startConsulDevServer({ port, snapshotPath });
    await eventually(async () => /connected/.test(await consulPanel()), "the recovery in the page", 20_000);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it("has landmarks, headings, labels, a polite live region, a <noscript> message and unique ids after tasks come and go", async () => {
    await daemon.tasks.delete("nightly");
    await daemon.tasks.create(testTask("nightly_2", { driver: "recording", condition: { type: "schedule", cron: "0 4 * * *" } }));
    await page.waitForFunction(() => [...document.querySelectorAll(".task-table tbody th a")].map((a) => a.textContent).join() === "web_task,broken_task,nightly_2", { timeout: 15_000 });
    const structure = await page.evaluate(() => {
      const visible = (node: Element) => (node as HTMLElement).getClientRects().length > 0;
      const ids = [...document.querySelectorAll("[id]")].map((node) => node.id);
      return {
        banner: document.querySelectorAll("body > header").length,
        main: document.querySelectorAll("main").length,
        aside: document.querySelector("aside")?.getAttribute("aria-label"),
        footer: document.querySelectorAll("body > footer").length,
        h1: [...document.querySelectorAll("h1")].map((node) => node.textContent),
        h2: [...document.querySelectorAll("h2")].filter(visible).map((node) => node.textContent),
        unlabelledSections: [...document.querySelectorAll("section")].filter((node) => !document.getElementById(node.getAttribute("aria-labelledby") ?? "")?.textContent).length,
        duplicateIds: ids.filter((id, index) => ids.indexOf(id) !== index),
        live: document.getElementById("announcer")?.getAttribute("aria-live"),
        lang: document.documentElement.lang,
      };
    });
    expect(structure).toEqual({
      banner: 1, main: 1, aside: "Cluster and Consul", footer: 1, h1: ["cts-runtime status"],
      h2: ["Summary", "Tasks", "Cluster", "Consul connection"], unlabelledSections: 0, duplicateIds: [], live: "polite", lang: "en",
    });
    const html = await (await fetch(`${daemon.url}/ui/`)).text();
    expect(html).toMatch(/<noscript><p[^>]*>This page needs JavaScript[\s\S]*<\/noscript>/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("reaches every control with Tab, in document order, with a visible focus ring", async () => {
    const controls = await page.evaluate(() => {
      const all = [...document.querySelectorAll<HTMLElement>("a[href], button, summary, input, select, textarea, [tabindex]")]
        .filter((node) => node.tabIndex >= 0 && node.getClientRects().length > 0);
      all.forEach((node, index) => node.setAttribute("data-control", String(index)));
      return all.length;
    });
    // Skip link, site link, refresh, status buttons, filter select and input, task and run links, footer links.
    expect(controls).toBeGreaterThanOrEqual(1 + 1 + 1 + 2 + 2 + 3 + 2);
    await page.focus(`[data-control="${controls - 1}"]`);
    await page.keyboard.press("Tab");
    const reached: string[] = [];
    const rings: string[] = [];
    for (let n = 0; n < controls; n++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const node = document.activeElement as HTMLElement;
        const style = getComputedStyle(node);
        return { control: node.getAttribute("data-control") ?? node.tagName, ring: style.outlineStyle !== "none" && style.outlineWidth !== "0px", style: `${style.outlineStyle} ${style.outlineWidth}` };
      });
      reached.push(focused.control);
      if (!focused.ring) rings.push(`${focused.control} ${focused.style}`);
    }
    expect(reached).toEqual(Array.from({ length: controls }, (_, index) => String(index)));
    expect(rings).toEqual([]);
  });

  it("loads nothing from outside the daemon's origin, breaks no policy, and logs no error (none for a standalone daemon's cluster)", async () => {
    const origin = new URL(daemon.url).origin;
    expect(watched.requests.length).toBeGreaterThan(4);
    expect(watched.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(watched.requests).toContain(`${origin}/v1/events`);
    expect(watched.requests).not.toContain(`${origin}/v1/status/cluster`);
    expect(watched.problems).toEqual([]);
    expect(await watched.cspViolations()).toEqual([]);
  });

  it("saves readable screenshots: desktop, phone (390 px) and dark mode", async () => {
    const shots: Record<string, string> = {};
    const take = async (name: string) => {
      await page.waitForFunction(() => document.querySelectorAll(".task-table tbody tr").length === 3, { timeout: 15_000 });
      shots[name] = await screenshot(page, `overview-${name}`);
    };
    await take("desktop");
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await page.waitForFunction(() => document.documentElement.scrollWidth <= 390, { timeout: 5000 });
    await take("phone");
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(3 * 60);
    await take("phone-dark");
    await page.setViewport({ width: 1280, height: 900 });
    await take("desktop-dark");
    expect(await seriousViolations(page)).toEqual([]);
    for (const [name, path] of Object.entries(shots)) {
      const png = readFileSync(path);
      expect(png.subarray(0, 8).toString("hex"), name).toBe("89504e470d0a1a0a");
      expect(png.length, name).toBeGreaterThan(10_000);
    }
  });
});
