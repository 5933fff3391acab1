/**
 * tfc-dev behaves as HCP Terraform where clients meet it: 30 API requests a second per token, 429
 * and `X-RateLimit-*` past it (go-tfe reads the limit from ping); read-only pages at the URLs
 * clients print (workspace, run with its plan and apply logs); and a workspace Terraform version its
 * one binary cannot serve makes the run error with the reason, instead of running another version.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { RateLimiter } from "../../../dev-servers/tfc/src/http/rate-limiter.ts";
import { until } from "../../../harness/until.ts";

let server: TfcDevServer;
let archive: Uint8Array;

beforeAll(async () => {
  server = await startTfcDevServer();
  const dir = mkdtempSync(join(tmpdir(), "tfc-pages-"));
  writeFileSync(join(dir, "main.tf"), `resource "terraform_data" "n" {\n  input = "<b>x</b>"\n}\n`);
  execFileSync("tar", ["-czf", join(dir, "c.tar.gz"), "-C", dir, "main.tf"]);
  archive = new Uint8Array(readFileSync(join(dir, "c.tar.gz")));
  rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => await server?.stop());

async function api(method: string, path: string, body?: unknown, token = server.token) {
  const response = await fetch(`${server.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.api+json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A workspace with `attributes`, an uploaded configuration, and one run followed to its end. */
async function workspaceWithRun(name: string, attributes: Record<string, unknown> = {}) {
  const ws = await api("POST", `/organizations/${server.organization}/workspaces`, { data: { type: "workspaces", attributes: { name, "auto-apply": true, ...attributes } } });
  expect(ws.status).toBe(201);
  const cv = await api("POST", `/workspaces/${ws.body.data.id}/configuration-versions`, { data: { type: "configuration-versions", attributes: { "auto-queue-runs": false } } });
  await fetch(cv.body.data.attributes["upload-url"], { method: "PUT", body: archive as BodyInit });
  await until("the upload is read", async () => (await api("GET", `/configuration-versions/${cv.body.data.id}`)).body.data.attributes.status === "uploaded" || undefined, 60_000, 100);
  const run = await api("POST", "/runs", { data: { type: "runs", attributes: {}, relationships: { workspace: { data: { type: "workspaces", id: ws.body.data.id } } } } });
  expect(run.status).toBe(201);
  const ended = await until("the run ends", async () => {
    const read = await api("GET", `/runs/${run.body.data.id}`);
    return ["applied", "errored", "planned_and_finished"].includes(read.body.data.attributes.status) ? read.body.data : undefined;
  }, 60_000, 100);
  return { ws: ws.body.data, run: ended };
}

describe("tfc-dev's API rate limit", () => {
  it("counts 30 requests a second per token, then refuses with 429 and X-RateLimit-* until the window reopens", () => {
    let at = 10_000;
    const limiter = new RateLimiter(30, () => at);
    const answers = Array.from({ length: 30 }, () => limiter.admit("Bearer a"));
    expect(answers.every((answer) => answer.refusal === undefined)).toBe(true);
    expect(answers[29]!.headers).toEqual({ "X-RateLimit-Limit": "30", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1.000" });
    at += 400;
    const refused = limiter.admit("Bearer a");
    expect(refused.refusal?.status).toBe(429);
    expect(refused.headers["X-RateLimit-Reset"]).toBe("0.600");
    // Another token has its own window; the first one's reopens a second after it began.
    expect(limiter.admit("Bearer b").refusal).toBeUndefined();
    at += 600;
    expect(limiter.admit("Bearer a").headers["X-RateLimit-Remaining"]).toBe("29");
    expect(limiter.refused).toBe(1);
    expect(new RateLimiter(0).admit("Bearer a")).toEqual({ headers: {} });
  });

  it("is on by default: bursts past the limit meet a JSON:API 429, and ping announces the limit", async () => {
    const ping = await fetch(`${server.url}/api/v2/ping`);
    expect(ping.headers.get("x-ratelimit-limit")).toBe("30");
    // Bursts of 45 at once until one meets the limit (a loaded machine may spread a burst over two windows).
    let refused: Awaited<ReturnType<typeof api>> | undefined;
    for (let burst = 0; burst < 20 && !refused; burst++) {
      const answers = await Promise.all(Array.from({ length: 45 }, () => api("GET", `/organizations/${server.organization}`)));
      refused = answers.find((answer) => answer.status === 429);
      expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    }
    expect(refused?.body.errors[0]).toMatchObject({ status: "429", title: "Too many requests" });
    expect(Number(refused!.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
    expect(refused!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused!.headers.get("x-ratelimit-limit")).toBe("30");
    expect(server.rateLimiter.refused).toBeGreaterThan(0);
    await until("the limit's window reopens", async () => (await api("GET", `/organizations/${server.organization}`)).status === 200 || undefined, 10_000, 100);
  });
});

describe("tfc-dev's pages at the URLs clients print", () => {
  it("serves a read-only workspace page and a run page with its logs, escaped; unknown ones are 404", async () => {
    const { ws, run } = await workspaceWithRun("paged");
    expect(run.attributes.status).toBe("applied");
    const wsPage = await fetch(`${server.url}/app/${server.organization}/workspaces/paged`);
    expect(wsPage.status).toBe(200);
    expect(wsPage.headers.get("content-type")).toContain("text/html");
    const wsHtml = await wsPage.text();
    expect(wsHtml).toContain(ws.id);
    expect(wsHtml).toContain(`href="/app/${server.organization}/workspaces/paged/runs/${run.id}"`);
    const runHtml = await (await fetch(`${server.url}/app/${server.organization}/workspaces/paged/runs/${run.id}`)).text();
    expect(runHtml).toContain("applied");
    expect(runHtml).toContain("Apply complete!");
    // The plan log shows the resource's value, escaped.
    expect(runHtml).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(runHtml).not.toContain("<b>x</b>");
    expect((await fetch(`${server.url}/app/${server.organization}/workspaces/nope`)).status).toBe(404);
    expect((await fetch(`${server.url}/app/${server.organization}/workspaces/paged/runs/run-nope`)).status).toBe(404);
  });

  it("a workspace Terraform version the binary cannot serve errors the run with the reason; the page warns", async () => {
    const { run } = await workspaceWithRun("old-terraform", { "terraform-version": "0.12.31" });
    expect(run.attributes.status).toBe("errored");
    const plan = (await api("GET", `/plans/${run.relationships.plan.data.id}`)).body.data;
    const log = await (await fetch(plan.attributes["log-read-url"])).text();
    expect(log).toContain(`this server runs one Terraform, ${server.terraform!.version}, and the workspace asks for Terraform 0.12.31`);
    const page = await (await fetch(`${server.url}/app/${server.organization}/workspaces/old-terraform`)).text();
    expect(page).toContain("Runs of this workspace will error");
    // A constraint the binary meets is served.
    const [major, minor] = server.terraform!.version.split(".");
    const { run: served } = await workspaceWithRun("constrained", { "terraform-version": `~> ${major}.${minor}.0` });
    expect(served.attributes.status).toBe("applied");
  });
});
