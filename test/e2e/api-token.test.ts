/**
 * The API token and the listen address (beyond CTS, which has neither): the real daemon with
 * `api { address = "127.0.0.1", token = <read from the embedded Vault> }`. Every request needs
 * `Authorization: Bearer <token>` (401 with CTS's error shape and `WWW-Authenticate: Bearer`
 * otherwise) except `/v1/health` (Consul's check) and the status page's files; the CLI sends it
 * from CTS_TOKEN or -token; the API listens on loopback only and refuses a Host that is not a
 * loopback name (DNS rebinding).
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../dev-servers/vault/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { answers, type DaemonProcess, startDaemon, waitForDaemon } from "../helpers/daemon-process.ts";
import { runCli } from "../../harness/run-cli.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const token = `tok-${randomBytes(12).toString("hex")}`;

/** A raw GET with a chosen Host header (fetch does not let a caller set it). */
function getWithHost(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host, authorization: `Bearer ${token}` } }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** This machine's first non-loopback IPv4 address, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces()).flat().find((entry) => entry?.family === "IPv4" && !entry.internal)?.address;
}

describe("the API token and a loopback listen address", () => {
  let consul: TestConsulDevServer;
  let vault: VaultDevServer;
  let daemon: DaemonProcess;
  let port = 0;
  let api = "";
  const tmp = tempDir("api-token");
  const withToken = { Authorization: `Bearer ${token}` };

  beforeAll(async () => {
    consul = await startConsulDevServer();
    vault = await startVaultDevServer();
    await fetch(`${vault.url}/v1/secret/data/cts`, {
      method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { token } }),
    });
    port = await freePort();
    api = `http://127.0.0.1:${port}`;
    const file = join(tmp.path, "cts.hcl");
    writeFileSync(file, `log_level   = "DEBUG"
port        = ${port}
working_dir = ${JSON.stringify(join(tmp.path, "sync-tasks"))}
api {
  address = "127.0.0.1"
  token   = "{{ with secret \\"secret/cts\\" }}{{ .Data.data.token }}{{ end }}"
}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
vault {
  address = "${vault.url}"
}
`);
    daemon = startDaemon("node", file, { cwd: tmp.path, env: terraformTestEnv({ VAULT_TOKEN: vault.rootToken }) });
    await waitForDaemon(daemon, answers(`${api}/v1/health`));
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    await vault?.stop();
    await consul?.stop();
    tmp.remove();
  });

  it("refuses every data endpoint without the token: 401, CTS's error shape, WWW-Authenticate: Bearer", async () => {
    for (const path of ["/v1/status", "/v1/tasks", "/v1/status/tasks", "/v1/events", "/metrics", "/ui/overview.json", "/v1/nothing"]) {
      const attempts: Record<string, string>[] = [{}, { Authorization: "Bearer not-the-token" }, { Authorization: `Basic ${token}` }];
      for (const headers of attempts) {
        const response = await fetch(`${api}${path}`, { headers });
        expect(response.status, path).toBe(401);
        expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(await response.json()).toEqual({ error: { message: expect.stringMatching(/^Cannot authorize GET /) } });
      }
    }
    const write = await fetch(`${api}/v1/tasks`, { method: "POST", body: "{}" });
    expect(write.status).toBe(401);
  });

  it("answers with the token, and serves health and the status page's files without it", async () => {
    for (const path of ["/v1/status", "/v1/tasks", "/metrics", "/ui/overview.json"]) {
      expect((await fetch(`${api}${path}`, { headers: withToken })).status, path).toBe(200);
    }
    const stream = await fetch(`${api}/v1/events`, { headers: withToken });
    expect(stream.status).toBe(200);
    await stream.body!.cancel();
    for (const path of ["/v1/health", "/ui/", "/ui/app.js", "/ui/app.css"]) {
      expect((await fetch(`${api}${path}`)).status, path).toBe(200);
    }
    expect(daemon.output()).not.toContain(token);
  });

  it("lets the CLI in with CTS_TOKEN or -token, and says why without", async () => {
    const env = { CTS_ADDRESS: api };
    const fromEnv = await runCli("node", ["status"], { env: { ...env, CTS_TOKEN: token } });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toContain("No tasks");
    const fromFlag = await runCli("node", ["status", `-token=${token}`], { env });
    expect(fromFlag.code, fromFlag.stderr).toBe(0);
    const without = await runCli("node", ["task", "disable", "nothing"], { env });
    expect(without.code).toBe(11);
    expect(without.stdout + without.stderr).toMatch(/401 Unauthorized: Cannot authorize PATCH \/v1\/tasks\/nothing: the API needs a token/);
    const withFlag = await runCli("node", ["task", "disable", `-token=${token}`, "nothing"], { env });
    expect(withFlag.stdout + withFlag.stderr).toMatch(/404 Not Found/);
  });

  it("listens on loopback only and answers only loopback Host names (DNS rebinding)", async () => {
    expect((await getWithHost(port, "/v1/status", `localhost:${port}`)).status).toBe(200);
    expect((await getWithHost(port, "/v1/status", `[::1]:${port}`)).status).toBe(200);
    const rebound = await getWithHost(port, "/v1/status", `evil.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toMatch(/host "evil\.example:\d+".*DNS rebinding.*api\.address/);
    const external = externalAddress();
    if (external !== undefined) {
      await expect(fetch(`http://${external}:${port}/v1/health`)).rejects.toThrow();
    }
  });
});
