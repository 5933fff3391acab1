/**
 * Cross-site writes, tried as an attacker's web page would (beyond CTS, whose wildcard CORS let any
 * page an operator opens create and run a task): Debian's Chromium (puppeteer-core) opens a page on
 * another site that posts task bodies to the real daemon (text/plain and JSON fetches, a text/plain
 * form whose body is valid JSON, a urlencoded form); every write is refused with 403 and nothing is
 * created. A page on an origin listed in api.allowed_origins may write and read the answer (CORS);
 * the status page on the API's own origin still loads and writes; curl without Origin creates tasks
 * as before, form content type included (CTS scripts do `curl --data @payload.json`).
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { repoRoot } from "../../harness/run-cli.ts";
import { startApiDaemon, type ApiDaemon } from "../plugins/http-api/helpers/api-daemon.ts";

const CHROMIUM = "/usr/bin/chromium";
const demoModule = join(repoRoot, "examples", "demo", "module");

function taskBody(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { task: { name, module: demoModule, condition: { services: { names: ["api"] } }, ...extra } };
}

/** The attacker's page: every kind of write a page can send without the daemon's consent. */
function attackerPage(api: string): string {
  const json = (name: string) => JSON.stringify(taskBody(name));
  // A text/plain form sends `<name>=<value>\r\n`: with the JSON split at `=`, the body parses as JSON.
  const [formName, formValue] = [JSON.stringify(taskBody("evil_form", { description: "" })).replace(/""}}$/, '"'), '"}}'];
  return `<!doctype html><html><body>
<iframe name="sink"></iframe>
<form id="plain" method="POST" enctype="text/plain" action="${api}/v1/tasks?run=now" target="sink"><input name='${formName}' value='${formValue}'></form>
<form id="urlencoded" method="POST" action="${api}/v1/tasks" target="sink"><input name="task" value='${json("evil_urlencoded")}'></form>
<script>
window.attack = async () => {
  const sent = [];
  const post = (name, init) => fetch(${JSON.stringify(api)} + "/v1/tasks?run=now", { method: "POST", ...init }).then(
    (r) => sent.push(name + ":" + r.type + ":" + r.status), (e) => sent.push(name + ":blocked"));
  await post("no-cors", { mode: "no-cors", headers: { "Content-Type": "text/plain" }, body: ${JSON.stringify(json("evil_nocors"))} });
  await post("cors-text", { headers: { "Content-Type": "text/plain" }, body: ${JSON.stringify(json("evil_cors"))} });
  await post("cors-json", { headers: { "Content-Type": "application/json" }, body: ${JSON.stringify(json("evil_json"))} });
  await fetch(${JSON.stringify(api)} + "/v1/tasks/curl_task", { method: "DELETE" }).then(() => sent.push("delete:sent"), () => sent.push("delete:blocked"));
  return sent;
};
window.submitForm = (id) => document.getElementById(id).submit();
</script></body></html>`;
}

/** A page on an allowed origin: a JSON write whose answer it may read. */
function allowedPage(api: string): string {
  return `<!doctype html><html><body><script>
window.write = async () => {
  const r = await fetch(${JSON.stringify(api)} + "/v1/tasks", { method: "POST", headers: { "Content-Type": "application/json" },
    body: ${JSON.stringify(JSON.stringify(taskBody("partner_task")))} });
  return { status: r.status, body: await r.json() };
};
</script></body></html>`;
}

function servePage(html: string, port: number): Promise<Server> {
  const server = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(html));
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

describe("writes from other origins, in Chromium", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiDaemon;
  let browser: Browser;
  let attacker: Server;
  let partner: Server;
  let attackerUrl = "";
  let partnerUrl = "";
  /** Every answer the daemon gave the browser: `METHOD path -> status` (opaque ones included). */
  const answers: string[] = [];

  const taskNames = async () =>
    ((await (await fetch(`${daemon.url}/v1/tasks`)).json()) as { tasks: { name: string }[] }).tasks.map((task) => task.name);

  async function openPage(url: string): Promise<Page> {
    const page = await browser.newPage();
    page.on("response", (response) => {
      if (response.url().startsWith(daemon.url)) {
        answers.push(`${response.request().method()} ${new URL(response.url()).pathname} -> ${response.status()}`);
      }
    });
    await page.goto(url, { waitUntil: "domcontentloaded" });
    return page;
  }

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await fetch(`${consul.url}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify({ ID: "api-1", Name: "api", Port: 9090 }) });
    const [attackerPort, partnerPort] = [await freePort(), await freePort()];
    // localhost vs 127.0.0.1: another site, as the attacker's page would be.
    attackerUrl = `http://localhost:${attackerPort}`;
    partnerUrl = `http://localhost:${partnerPort}`;
    daemon = await startApiDaemon({
      consulAddress: consul.address,
      extraHcl: `api {\n  allowed_origins = ["${partnerUrl}"]\n}\n`,
    });
    attacker = await servePage(attackerPage(daemon.url), attackerPort);
    partner = await servePage(allowedPage(daemon.url), partnerPort);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM, headless: true, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    attacker?.close();
    partner?.close();
    await daemon?.stop();
    await consul?.stop();
  });

  it("curl without Origin creates tasks as before, JSON or form content type", async () => {
    const payload = join(daemon.dir, "payload.json");
    writeFileSync(payload, JSON.stringify(taskBody("curl_task")));
    // `--data` sends application/x-www-form-urlencoded, as CTS users' scripts do.
    const { stdout } = await promisify(execFile)("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--data", `@${payload}`, `${daemon.url}/v1/tasks`]);
    expect(stdout).toBe("201");
    expect(await taskNames()).toContain("curl_task");
  });

  it("refuses every write an attacker's page sends, and nothing is created or deleted", async () => {
    const page = await openPage(attackerUrl);
    const sent = await page.evaluate(() => (window as unknown as { attack(): Promise<string[]> }).attack());
    // The preflighted writes never left the browser: the daemon granted no CORS to this origin.
    expect(sent).toEqual(expect.arrayContaining(["cors-json:blocked", "delete:blocked"]));
    const refusals: string[] = [];
    for (const form of ["plain", "urlencoded"]) {
      const answered = page.waitForResponse((response) => response.url().startsWith(`${daemon.url}/v1/tasks`) && response.request().method() === "POST");
      await page.evaluate((id) => (window as unknown as { submitForm(id: string): void }).submitForm(id), form);
      refusals.push(await (await answered).text());
    }
    // Each refusal says why and which setting would allow that origin.
    for (const text of refusals) expect(text).toMatch(new RegExp(`from a web page at ${attackerUrl}: .*api\\.allowed_origins`));
    // The no-cors fetch and both forms reached the daemon and were refused (Chromium reports no answer
    // for the CORS text/plain fetch, which it failed for want of CORS headers).
    const writes = answers.filter((answer) => !answer.startsWith("OPTIONS") && !answer.startsWith("GET"));
    expect(writes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(writes)).toEqual(new Set(["POST /v1/tasks -> 403"]));
    expect(answers).toContain("OPTIONS /v1/tasks -> 200");
    const names = await taskNames();
    expect(names.filter((name) => name.startsWith("evil_"))).toEqual([]);
    expect(names).toContain("curl_task");
    await page.close();
  });

  it("lets a page on an allowed origin write, and read the answer (CORS follows the allowlist)", async () => {
    const page = await openPage(partnerUrl);
    const result = await page.evaluate(() => (window as unknown as { write(): Promise<{ status: number; body: unknown }> }).write());
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ task: { name: "partner_task" } });
    expect(await taskNames()).toContain("partner_task");
    await page.close();
  });

  it("keeps the status page on the API's own origin working as before, same-origin writes included", async () => {
    const page = await openPage(`${daemon.url}/ui/`);
    await page.waitForFunction(() => document.querySelectorAll(".task-table tbody tr").length >= 2, { timeout: 15_000 });
    const status = await page.evaluate(async (body) =>
      (await fetch("/v1/tasks", { method: "POST", headers: { "Content-Type": "application/json" }, body })).status,
      JSON.stringify(taskBody("own_origin_task")));
    expect(status).toBe(201);
    expect(await taskNames()).toContain("own_origin_task");
    await page.close();
  }, 30_000);
});
