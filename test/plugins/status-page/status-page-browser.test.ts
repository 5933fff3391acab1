/**
 * The status page in a real browser: Debian's Chromium (scripts/setup-chromium.sh), driven by
 * puppeteer-core (which never downloads one), against a daemon over real HTTP: the embedded Consul
 * server, the real engine (its run records and events) and the recording driver. Services tasks
 * run when Consul's data changes; "broken_task" always fails. Screenshots go to
 * .test-artifacts/status-page/.
 * Beyond CTS (CTS has no status page).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  definePlugin, httpRouterToken, type RunPage, type RunRecord, type TaskConfig,
} from "../../../core/plugin-api/mod.ts";
import { eventually } from "../../../core/plugin-testkit/src/eventually.ts";
import { testConsulConfig, testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../helpers/consul-dev-server.ts";
import { repoRoot } from "../../helpers/run-cli.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "../http-api/helpers/api-kernel.ts";
import { registerInstance } from "../task-engine/engine-harness.ts";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(repoRoot, ".test-artifacts", "status-page");

function servicesTask(name: string, service: string): TaskConfig {
  const base = testTask(name, { driver: "recording" });
  return { ...base, condition: { ...base.condition, names: [service] } as TaskConfig["condition"] };
}

/** The text of the task card named `name`, or undefined while it is not shown. */
function cardText(page: Page, name: string): Promise<string | undefined> {
  return page.evaluate((task) => {
    const card = [...document.querySelectorAll("article.card")].find((node) => node.querySelector("h3")?.textContent === task);
    return (card as HTMLElement | undefined)?.innerText;
  }, name);
}

describe("status page in Chromium", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiKernel;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
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

    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
    page = await browser.newPage();
    page.on("request", (request) => requests.push(request.url()));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(String(error)));
    await page.evaluateOnNewDocument(() => {
      const violations: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = violations;
      document.addEventListener("securitypolicyviolation", (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${daemon.url}/ui/`, { waitUntil: "domcontentloaded" });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await consul?.stop();
  });

  it("lists the tasks with status, last run, next run and the failing task's error", async () => {
    await page.waitForFunction(() => document.querySelectorAll("article.card").length === 3, { timeout: 15_000 });
    const web = await cardText(page, "web_task");
    expect(web).toMatch(/successful/);
    expect(web).toMatch(/Last run[\s\S]*succeeded/);
    const broken = await cardText(page, "broken_task");
    expect(broken).toMatch(/errored/);
    expect(broken).toMatch(/Last run failed: .*configured to fail/);
    const nightly = await cardText(page, "nightly");
    expect(nightly).toMatch(/Cleans up at night/);
    expect(nightly).toMatch(/Next run/);
    const next = await page.evaluate(() => document.querySelector("article.card:nth-child(3) dd time[datetime]:last-of-type")?.getAttribute("datetime"));
    expect(next).toMatch(/T03:00:00|^\d{4}-\d\d-\d\dT\d\d:00:00/);
    const aside = await page.$eval("aside", (node) => (node as HTMLElement).innerText);
    expect(aside).toMatch(/Standalone/);
    expect(aside).toMatch(/connected/);
    await page.waitForFunction(() => document.getElementById("live-state")?.getAttribute("data-state") === "live", { timeout: 15_000 });
  });

  it("shows a new run after a service registration, without a reload", async () => {
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    // Open web_task's recent runs (with the keyboard's Enter, as a user would).
    const summary = await page.evaluateHandle(() =>
      [...document.querySelectorAll("article.card")].find((node) => node.querySelector("h3")?.textContent === "web_task")!.querySelector("summary")!
    );
    await (summary as unknown as import("puppeteer-core").ElementHandle<HTMLElement>).focus();
    await page.keyboard.press("Enter");
    const runsOf = () => page.evaluate(() => {
      const card = [...document.querySelectorAll("article.card")].find((node) => node.querySelector("h3")?.textContent === "web_task")!;
      return card.querySelectorAll("ol.runs > li").length;
    });
    await eventually(async () => (await runsOf()) === 1, "web_task's startup run in the page", 10_000);
    await registerInstance(consul.url, "web", "web-2");
    await eventually(async () => (await runsOf()) === 2, "the new run in the page", 20_000);
    // The engine's run record says what changed in the inputs.
    const newest = await page.evaluate(() =>
      ([...document.querySelectorAll("article.card")].find((node) => node.querySelector("h3")?.textContent === "web_task")!
        .querySelector("ol.runs > li") as HTMLElement).innerText
    );
    expect(newest).toMatch(/applied[\s\S]*dependency/);
    expect(newest).toMatch(/service instance added: web-2/);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    const open = await page.evaluate(() =>
      [...document.querySelectorAll("article.card")].find((node) => node.querySelector("h3")?.textContent === "web_task")!.querySelector("details")!.open
    );
    expect(open).toBe(true);
    // The update was announced to screen readers.
    await eventually(async () => /web_task/.test(await page.$eval("#announcer", (node) => node.textContent ?? "")), "an announcement");
  });

  it("shows the Consul connection lost and restored as it happens", async () => {
    const consulPanel = () => page.$eval("#consul", (node) => (node as HTMLElement).innerText);
    const { port, snapshotPath } = consul;
    await consul.stop();
    await eventually(async () => /unreachable/.test(await consulPanel()), "the outage in the page", 20_000);
    expect(await consulPanel()).toMatch(/Cannot /);
    consul = await startConsulDevServer({ port, snapshotPath });
    await eventually(async () => /connected/.test(await consulPanel()), "the recovery in the page", 20_000);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it("has landmarks, headings, labels and a polite live region", async () => {
    const structure = await page.evaluate(() => ({
      banner: document.querySelectorAll("body > header").length,
      main: document.querySelectorAll("main").length,
      aside: document.querySelector("aside")?.getAttribute("aria-label"),
      footer: document.querySelectorAll("body > footer").length,
      h1: [...document.querySelectorAll("h1")].map((node) => node.textContent),
      h2: [...document.querySelectorAll("h2")].map((node) => node.textContent),
      unlabelledCards: [...document.querySelectorAll("article")].filter((node) => {
        const id = node.getAttribute("aria-labelledby");
        return !id || !document.getElementById(id)?.textContent;
      }).length,
      live: document.getElementById("announcer")?.getAttribute("aria-live"),
      lang: document.documentElement.lang,
    }));
    expect(structure).toEqual({
      banner: 1, main: 1, aside: "Cluster and Consul", footer: 1, h1: ["cts-runtime status"],
      h2: ["Tasks", "Cluster", "Consul connection"], unlabelledCards: 0, live: "polite", lang: "en",
    });
  });

  it("reaches every control with Tab, in document order, with a visible focus ring", async () => {
    const controls = await page.evaluate(() => {
      const all = [...document.querySelectorAll<HTMLElement>("a[href], button, summary, input, select, textarea, [tabindex]")]
        .filter((node) => node.tabIndex >= 0 && node.getClientRects().length > 0);
      all.forEach((node, index) => node.setAttribute("data-control", String(index)));
      return all.length;
    });
    expect(controls).toBeGreaterThanOrEqual(1 + 1 + 3 + 3); // skip link, refresh, three summaries, footer links
    // From the last control, Tab leaves the page once and then comes back to the first: a full
    // round reaches every control in order.
    await page.focus(`[data-control="${controls - 1}"]`);
    await page.keyboard.press("Tab");
    const reached: string[] = [];
    const rings: string[] = [];
    for (let n = 0; n < controls; n++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const node = document.activeElement as HTMLElement;
        const style = getComputedStyle(node);
        return { control: node.getAttribute("data-control") ?? node.tagName, ring: style.outlineStyle !== "none" && style.outlineWidth !== "0px", style: `${style.outlineStyle} ${style.outlineWidth} ${node.matches(":focus-visible")}` };
      });
      reached.push(focused.control);
      if (!focused.ring) rings.push(`${focused.control} ${focused.style}`);
    }
    expect(reached).toEqual(Array.from({ length: controls }, (_, index) => String(index)));
    expect(rings).toEqual([]);
  });

  it("loads nothing from outside the daemon's origin and breaks no policy", async () => {
    const origin = new URL(daemon.url).origin;
    expect(requests.length).toBeGreaterThan(4);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(requests).toContain(`${origin}/v1/events`);
    // Answers the page expects (405 from /v1/status/cluster without HA) are logged by Chromium too.
    expect(problems.filter((text) => !/^Failed to load resource: the server responded with a status of 40[045]/.test(text))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });

  it("saves readable screenshots: desktop, phone (390 px) and dark mode", async () => {
    const shots: Record<string, string> = {};
    const take = async (name: string) => {
      // A viewport change to or from a phone reloads the page: wait for the tasks, open their runs.
      await page.waitForFunction(() => document.querySelectorAll("article.card").length === 3, { timeout: 15_000 });
      await page.evaluate(() => document.querySelectorAll("details").forEach((node) => ((node as HTMLDetailsElement).open = true)));
      await page.waitForFunction(() => document.querySelectorAll("ol.runs > li").length >= 3, { timeout: 15_000 });
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      shots[name] = path;
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
    for (const [name, path] of Object.entries(shots)) {
      const png = readFileSync(path);
      expect(png.subarray(0, 8).toString("hex"), name).toBe("89504e470d0a1a0a");
      expect(png.length, name).toBeGreaterThan(10_000);
    }
  });
});

/**
 * Every field of a run record as the page renders it: a stand-in plugin answers
 * `GET /v1/tasks/nightly/runs` (ahead of the engine's route) with fixed records of the contract's shape.
 */
describe("status page in Chromium, with run records", () => {
  let daemon: ApiKernel;
  let browser: Browser;
  const runs: RunRecord[] = [
    {
      id: "0002", task: "nightly", trigger: { kind: "dependency", detail: "/v1/health/service/web" }, outcome: "failed",
      change: { services: { added: [], removed: ["web-3"], changed: [] } }, error: "Error: provider refused the change",
      started_at: "2026-11-26T06:00:05.000Z", ended_at: "2026-11-26T06:00:06.000Z", duration_ms: 1000, instance_id: "cts-api-test",
    },
    {
      id: "0001", task: "nightly", trigger: { kind: "schedule", detail: "0 3 * * *" }, outcome: "applied",
      change: {
        services: { added: ["web-2"], removed: [], changed: [{ id: "web-1", fields: ["address", "port"] }] },
        consul_kv: { added: [], removed: [], changed: ["app/config"] },
      },
      plan: { add: 1, change: 2, destroy: 0 },
      started_at: "2026-11-26T06:00:00.000Z", ended_at: "2026-11-26T06:00:00.250Z", duration_ms: 250, instance_id: "cts-api-test",
    },
  ];
  const runHistoryStandIn = definePlugin({
    id: "run-history-stand-in",
    kind: "api",
    deps: { router: httpRouterToken },
    init({ router }) {
      router.intercept((request) => {
        const url = new URL(request.url);
        if (url.pathname === "/v1/tasks/fallback/runs") return Response.json({ error: { message: "store unreachable" } }, { status: 500 });
        if (url.pathname !== "/v1/tasks/nightly/runs") return undefined;
        const page: RunPage = { runs: runs.slice(0, Number(url.searchParams.get("limit") ?? 20)) };
        return Response.json(page);
      });
    },
  });

  beforeAll(async () => {
    const config = apiConfig({
      tasks: [
        testTask("nightly", { driver: "recording", condition: { type: "schedule", cron: "0 3 * * *" } }),
        testTask("fallback", { driver: "recording", condition: { type: "schedule", cron: "0 3 * * *" } }),
      ],
    });
    daemon = await startApiKernel({ config, extraPlugins: ["status-page"], plugins: [runHistoryStandIn] });
    await daemon.tasks.runNow("fallback", { kind: "api" });
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("shows each run's outcome, trigger, plan, input changes and error", async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${daemon.url}/ui/`, { waitUntil: "domcontentloaded" });
    const runsOf = (task: string) => page.evaluate((name) =>
      [...[...document.querySelectorAll("article.card")].find((node) => node.querySelector("h3")?.textContent === name)!
        .querySelectorAll("ol.runs > li")].map((node) => (node as HTMLElement).innerText), task);
    await page.waitForFunction(() => document.querySelectorAll("article.card").length === 2, { timeout: 15_000 });
    await page.evaluate(() => document.querySelectorAll("details").forEach((node) => ((node as HTMLDetailsElement).open = true)));
    await eventually(async () => (await runsOf("nightly")).length === 2, "nightly's two records", 15_000);
    const items = await runsOf("nightly");
    expect(items[0]).toMatch(/failed[\s\S]*dependency: \/v1\/health\/service\/web/);
    expect(items[0]).toMatch(/service instance removed: web-3/);
    expect(items[0]).toMatch(/Error: provider refused the change/);
    expect(items[1]).toMatch(/applied[\s\S]*250 ms[\s\S]*schedule: 0 3 \* \* \*/);
    expect(items[1]).toMatch(/plan: \+1 ~2 -0/);
    expect(items[1]).toMatch(/service instance added: web-2/);
    expect(items[1]).toMatch(/service instance changed: web-1 \(address, port\)/);
    expect(items[1]).toMatch(/KV key changed: app\/config/);
    // When the run history cannot be read, the task's CTS events stand in.
    const fallback = await runsOf("fallback");
    expect(fallback.length).toBeGreaterThanOrEqual(1);
    expect(fallback[0]).toMatch(/succeeded[\s\S]*api/);
    await page.screenshot({ path: join(ARTIFACTS, "run-records.png"), fullPage: true });
  });
});
