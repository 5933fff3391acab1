/**
 * The embedded HCP Terraform server's run lifecycle over its API, its fault injection (what the
 * terraform-cloud driver's retry logic is tested against) and the `tfc-dev` command.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { freePort } from "../../../harness/free-port.ts";
import { runCli, spawnCli } from "../../../harness/run-cli.ts";

interface Api {
  (method: string, urlPath: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }>;
}

function apiOf(server: TfcDevServer, token = server.token): Api {
  return async (method, urlPath, body) => {
    const response = await fetch(`${server.url}/api/v2${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.api+json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
}

let moduleArchive: Buffer;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "tfc-module-"));
  await writeFile(path.join(dir, "main.tf"), `resource "terraform_data" "n" { input = "x" }\noutput "n" { value = terraform_data.n.output }\n`);
  execFileSync("tar", ["-czf", path.join(dir, "module.tar.gz"), "-C", dir, "main.tf"]);
  moduleArchive = await readFile(path.join(dir, "module.tar.gz"));
  await rm(dir, { recursive: true, force: true });
});

async function workspaceWithUpload(api: Api, server: TfcDevServer, name: string) {
  const ws = await api("POST", `/organizations/${server.organization}/workspaces`, { data: { type: "workspaces", attributes: { name } } });
  expect(ws.status).toBe(201);
  const cv = await api("POST", `/workspaces/${ws.body.data.id}/configuration-versions`, { data: { type: "configuration-versions", attributes: { "auto-queue-runs": false } } });
  expect(cv.status).toBe(201);
  const upload = await fetch(cv.body.data.attributes["upload-url"], { method: "PUT", body: new Uint8Array(moduleArchive), headers: { "content-type": "application/octet-stream" } });
  expect(upload.status).toBe(200);
  return { workspaceId: ws.body.data.id as string, configurationVersionId: cv.body.data.id as string };
}

async function waitForStatus(api: Api, path: string, wanted: string[], timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let status = "";
  while (Date.now() < deadline) {
    status = (await api("GET", path)).body.data.attributes.status;
    if (wanted.includes(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${path} stayed ${status}, wanted ${wanted.join(" or ")}`);
}

describe("tfc-dev run lifecycle and faults", () => {
  let server: TfcDevServer;
  let api: Api;
  beforeAll(async () => {
    server = await startTfcDevServer();
    api = apiOf(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a wrong token with a JSON:API 401", async () => {
    const answer = await apiOf(server, "wrong")("GET", `/organizations/${server.organization}`);
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].status).toBe("401");
  });

  it("plans and applies an auto-apply run for real, waiting in the queue as long as asked", async () => {
    server.setFaults({ queueDelayMs: 700 });
    const { workspaceId, configurationVersionId } = await workspaceWithUpload(api, server, "lifecycle");
    await waitForStatus(api, `/configuration-versions/${configurationVersionId}`, ["uploaded"]);
    const run = await api("POST", "/runs", {
      data: {
        type: "runs",
        attributes: { "auto-apply": true, message: "test" },
        relationships: {
          workspace: { data: { type: "workspaces", id: workspaceId } },
          "configuration-version": { data: { type: "configuration-versions", id: configurationVersionId } },
        },
      },
    });
    expect(run.status).toBe(201);
    const early = (await api("GET", `/runs/${run.body.data.id}`)).body.data.attributes.status;
    expect(["pending", "plan_queued"]).toContain(early);
    expect(await waitForStatus(api, `/runs/${run.body.data.id}`, ["applied", "errored"])).toBe("applied");
    const state = await api("GET", `/workspaces/${workspaceId}/current-state-version`);
    expect(state.status).toBe(200);
    server.setFaults({});
  }, 90_000);

  it("answers every Nth request 429 with X-RateLimit-Reset, and every Mth with the chosen 5xx", async () => {
    server.setFaults({ rateLimitEvery: 3, rateLimitResetSeconds: 2 });
    const statuses = [];
    let reset: string | null = null;
    for (let i = 0; i < 6; i++) {
      const answer = await api("GET", `/organizations/${server.organization}`);
      statuses.push(answer.status);
      if (answer.status === 429) reset = answer.headers.get("x-ratelimit-reset");
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
    expect(Number(reset)).toBe(2);

    server.setFaults({ serverErrorEvery: 2, serverErrorStatus: 502 });
    const five = [];
    for (let i = 0; i < 4; i++) five.push((await api("GET", `/organizations/${server.organization}`)).status);
    expect(five).toEqual([200, 502, 200, 502]);
    server.setFaults({});
  });

  it("fails the chosen uploads: the configuration version errors", async () => {
    server.setFaults({ uploadErrorEvery: 1 });
    const { configurationVersionId } = await workspaceWithUpload(api, server, "bad-upload");
    expect(await waitForStatus(api, `/configuration-versions/${configurationVersionId}`, ["uploaded", "errored"])).toBe("errored");
    server.setFaults({});
  });
});

describe("cts-runtime tfc-dev", () => {
  it("prints its address, organization and token, and serves until interrupted", async () => {
    const port = await freePort();
    const child = spawnCli("node", ["tfc-dev", `-http-addr=127.0.0.1:${port}`, "-token=cli-token", "-organization=acme"]);
    try {
      let output = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner: ${output}`)), 20_000);
        child.stdout!.on("data", (chunk) => {
          output += chunk;
          if (output.includes("Token:")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expect(output).toContain(`http://127.0.0.1:${port}/api/v2/`);
      expect(output).toMatch(/Organization: acme/);
      expect(output).toMatch(/Token: cli-token/);
      const org = await fetch(`http://127.0.0.1:${port}/api/v2/organizations/acme`, { headers: { authorization: "Bearer cli-token" } });
      expect(org.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
    const code = await new Promise((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
  });

  it("rejects a bad fault flag naming it", async () => {
    const result = await runCli("node", ["tfc-dev", "-http-addr=127.0.0.1:0", "-fault-5xx-status=404"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("-fault-5xx-status must be a 5xx status, got 404");
  });
});
