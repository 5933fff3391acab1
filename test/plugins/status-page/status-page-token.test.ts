/**
 * The status page with an API token (issue 23's rules, server side played by a stand-in plugin
 * until the real one is merged): `/ui/` assets are served without the token; `/ui/overview.json`,
 * every `/v1` path and `/v1/events` answer 401 with `WWW-Authenticate: Bearer` unless
 * `Authorization: Bearer <token>` is right. The page asks for the token once, keeps it for the tab
 * (sessionStorage), sends it on every request including the event stream (read with fetch), and
 * resumes the stream with Last-Event-ID after a drop; the page's writes (inspect, delete) carry it.
 * Beyond CTS.
 */
import type { Browser, HTTPRequest } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definePlugin, httpRouterToken } from "../../../core/plugin-api/mod.ts";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "../http-api/helpers/api-kernel.ts";
import { launchChromium, seriousViolations, textOf, watchedPage } from "./browser-support.ts";

const TOKEN = "s3cret-page-token";

/** The server side of the token rule, and one stream that ends after its `ready` (id 7) to force a resume. */
function tokenStandIn(state: { dropNextStream: boolean }) {
  return definePlugin({
    id: "api-token-stand-in",
    kind: "api",
    deps: { router: httpRouterToken },
    init({ router }) {
      router.intercept((request) => {
        const path = new URL(request.url).pathname;
        const guarded = path === "/ui/overview.json" || path.startsWith("/v1/");
        if (!guarded) return undefined;
        if (request.headers.get("authorization") !== `Bearer ${TOKEN}`) {
          return Response.json({ error: { message: "a valid API token is required" } }, { status: 401, headers: { "www-authenticate": "Bearer" } });
        }
        if (path === "/v1/events" && state.dropNextStream) {
          state.dropNextStream = false;
          return new Response("retry: 100\n\nid: 7\nevent: ready\ndata: {\"last_event_id\":7}\n\n", { headers: { "content-type": "text/event-stream" } });
        }
        return undefined;
      });
    },
  });
}

describe("status page with an API token", () => {
  let daemon: ApiKernel;
  let browser: Browser;
  const state = { dropNextStream: true };

  beforeAll(async () => {
    const config = apiConfig({ tasks: [testTask("nightly", { driver: "recording", condition: { type: "schedule", cron: "0 3 * * *" } })] });
    daemon = await startApiKernel({ config, extraPlugins: ["status-page"], plugins: [tokenStandIn(state)] });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("asks once, refuses a wrong token with a message, then loads with the token on every request and the stream", async () => {
    const { page, problems } = await watchedPage(browser);
    const sent: HTTPRequest[] = [];
    page.on("request", (request) => sent.push(request));
    await page.goto(`${daemon.url}/ui/`, { waitUntil: "domcontentloaded" });
    await page.waitForSelector("#token-form:not([hidden])");
    // Several requests were refused; one form, with the focus in its field.
    expect(await page.$$eval("form", (forms) => forms.filter((form) => !form.hidden).length)).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("token-input");
    expect(await page.$eval("#token-input", (input) => (input as HTMLInputElement).type)).toBe("password");
    expect(await page.$eval("label[for='token-input']", (label) => label.textContent)).toBe("API token");
    expect(await seriousViolations(page)).toEqual([]);

    await page.type("#token-input", "wrong-token");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#token-error:not([hidden])");
    expect(await textOf(page, "#token-error")).toMatch(/refused that token/);

    await page.type("#token-input", TOKEN);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#page[data-loaded]", { timeout: 20_000 });
    await page.waitForSelector(".task-table tbody tr");
    expect(await textOf(page, ".task-table tbody")).toMatch(/nightly/);
    await page.waitForFunction(() => document.getElementById("live-state")?.getAttribute("data-state") === "live", { timeout: 15_000 });
    expect(await page.$("#token-form[hidden]")).not.toBeNull();

    // Every data request after the token carried it; the event stream too, read with fetch.
    const data = sent.filter((request) => /\/ui\/overview\.json|\/v1\//.test(request.url()));
    const withToken = data.filter((request) => request.headers().authorization === `Bearer ${TOKEN}`);
    expect(withToken.map((request) => new URL(request.url()).pathname)).toEqual(expect.arrayContaining(["/ui/overview.json", "/v1/events"]));
    // Assets never needed it.
    expect(sent.filter((request) => request.url().endsWith(".js")).every((request) => request.headers().authorization === undefined)).toBe(true);
    // The first stream ended after its ready (id 7): the page came back with Last-Event-ID.
    const streams = withToken.filter((request) => new URL(request.url()).pathname === "/v1/events");
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams[1]!.headers()["last-event-id"]).toBe("7");
    expect(problems.filter((text) => !/status of 401/.test(text))).toEqual([]);

    // Kept for the tab: a reload asks nothing.
    await page.reload({ waitUntil: "domcontentloaded" });
    await page.waitForSelector("#page[data-loaded]", { timeout: 20_000 });
    expect(await page.$("#token-form[hidden]")).not.toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem("cts-runtime-api-token"))).toBe(TOKEN);

    // Actions send it too: inspect from the task page.
    await page.goto(`${daemon.url}/ui/tasks/nightly`, { waitUntil: "domcontentloaded" });
    await page.waitForSelector("#page[data-loaded]", { timeout: 20_000 });
    const patched = page.waitForRequest((request) => request.method() === "PATCH");
    await (await page.waitForSelector(`xpath///button[normalize-space()="Inspect" and @aria-disabled="false"]`))!.click();
    expect((await patched).headers().authorization).toBe(`Bearer ${TOKEN}`);
    await page.waitForNavigation({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toMatch(/^\/ui\/tasks\/nightly\/runs\/\d{13}-/);

    // And a delete from the task page, after its confirmation.
    await page.goto(`${daemon.url}/ui/tasks/nightly`, { waitUntil: "domcontentloaded" });
    await page.waitForSelector("#page[data-loaded]", { timeout: 20_000 });
    await (await page.waitForSelector(`xpath///button[normalize-space()="Delete…"]`))!.click();
    const deleted = page.waitForRequest((request) => request.method() === "DELETE");
    await (await page.waitForSelector(`xpath///button[normalize-space()="Delete the task"]`))!.click();
    expect((await deleted).headers().authorization).toBe(`Bearer ${TOKEN}`);
    await page.waitForSelector("#page[data-gone]", { timeout: 20_000 });
    expect(daemon.tasks.get("nightly")).toBeUndefined();
  }, 90_000);
});
