/**
 * Secrets a module prints are masked everywhere the daemon records or serves them (beyond CTS, which
 * shows and stores them). The leak as reported: a task's local-exec prints a value read from the
 * embedded Vault (`echo "X-API-Key: $KEY" >&2; exit 1`), and the Consul token Terraform's backend
 * gets, in red. One real daemon (log_json), real Terraform, the embedded Consul and Vault; then the
 * raw bytes of every output are searched for the secrets (as written and JSON-escaped) and for
 * colour codes: run history, the CTS task events, `/v1/events`, `/ui/overview.json`, the error
 * body of `?run=now`, other API answers, and every log line.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVaultDevServer, type VaultDevServer } from "../../dev-servers/vault/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { answers, type DaemonProcess, startDaemon, waitForDaemon } from "../helpers/daemon-process.ts";
import { until } from "../../harness/until.ts";
import { registerService } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

/** A value Vault holds; the quote and backslash make its JSON spelling differ from its raw one. */
const apiKey = `key-${randomBytes(8).toString("hex")}"q\\z`;
const consulToken = `consul-${randomBytes(8).toString("hex")}`;
const apiToken = `api-${randomBytes(8).toString("hex")}`;
const ESC = "\u001b";

function spellings(secret: string): string[] {
  return [secret, JSON.stringify(secret).slice(1, -1)];
}

function writeLeakyModule(dir: string): string {
  const module = join(dir, "module");
  mkdirSync(module, { recursive: true });
  writeFileSync(join(module, "main.tf"), `variable "services" {
  type = any
}
resource "terraform_data" "leak" {
  input = keys(var.services)
  provisioner "local-exec" {
    command = "printf '\\\\033[31mred alert\\\\033[0m\\\\n' >&2; echo \\"X-API-Key: $APP_KEY\\" >&2; echo \\"consul=$CONSUL_HTTP_TOKEN\\" >&2; exit 1"
  }
}
`);
  return module;
}

describe("secrets printed by a module, masked in everything the daemon records or serves", () => {
  let consul: TestConsulDevServer;
  let vault: VaultDevServer;
  let daemon: DaemonProcess;
  let api = "";
  const tmp = tempDir("secret-masking");
  const auth = { Authorization: `Bearer ${apiToken}` };
  const get = async (path: string) => await (await fetch(`${api}${path}`, { headers: auth })).text();

  beforeAll(async () => {
    consul = await startConsulDevServer();
    vault = await startVaultDevServer();
    await fetch(`${vault.url}/v1/secret/data/app`, {
      method: "POST", headers: { "X-Vault-Token": vault.rootToken }, body: JSON.stringify({ data: { api_key: apiKey } }),
    });
    await registerService(consul.url, "web-1", "web", "10.0.0.1");
    writeLeakyModule(tmp.path);
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    const file = join(tmp.path, "cts.hcl");
    writeFileSync(file, `log_level   = "DEBUG"
log_json    = true
port        = ${port}
working_dir = ${JSON.stringify(join(tmp.path, "sync-tasks"))}
api {
  address = "127.0.0.1"
  token   = "${apiToken}"
}
consul {
  address = "${consul.address}"
  token   = "${consulToken}"
  service_registration {
    enabled = false
  }
}
vault {
  address = "${vault.url}"
}
buffer_period {
  enabled = false
}
terraform_provider "terraform" {
  task_env {
    "APP_KEY" = "{{ with secret \\"secret/app\\" }}{{ .Data.data.api_key }}{{ end }}"
  }
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

  it("masks them in run history, task events, the event stream, the status page's data, API errors and logs", async () => {
    const task = { name: "leaky", module: join(tmp.path, "module"), providers: ["terraform"], condition: { services: { names: ["web"] } } };
    const headers = { ...auth, "Content-Type": "application/json" };
    const created = await fetch(`${api}/v1/tasks`, { method: "POST", headers, body: JSON.stringify({ task }) });
    expect(created.status).toBe(201);
    // A created task runs when its watched data changes.
    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    const failed = await until("the task's failed run", async () => {
      const page = JSON.parse(await get("/v1/tasks/leaky/runs")) as { runs: { id: string; outcome: string; error?: string }[] };
      return page.runs.find((run) => run.outcome === "failed");
    }, 120_000);
    // Not vacuous: Terraform's error carried the module's output, which the daemon masked.
    expect(failed.error).toContain("X-API-Key: <redacted>");
    expect(failed.error).toContain("consul=<redacted>");
    expect(failed.error).toContain("red alert");

    const runNow = await fetch(`${api}/v1/tasks/leaky?run=now`, { method: "PATCH", headers, body: JSON.stringify({ enabled: true }) });
    const runNowBody = await runNow.text();
    expect(runNow.status).toBeGreaterThanOrEqual(400);
    expect(runNowBody).toContain("<redacted>");
    const createNow = await fetch(`${api}/v1/tasks?run=now`, {
      method: "POST", headers, body: JSON.stringify({ task: { ...task, name: "leaky_now" } }),
    });
    const createNowBody = await createNow.text();
    expect(createNowBody).toContain("<redacted>");

    // Everything the event bus retained since the daemon started, as a stream client reads it.
    const stream = await fetch(`${api}/v1/events?last_event_id=0`, { headers: auth });
    const reader = stream.body!.getReader();
    let events = "";
    while (!events.includes("event: ready")) events += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(events).toContain("event: run.ended");

    const logs = daemon.output();
    const outputs: Record<string, string> = {
      "run history": await get("/v1/tasks/leaky/runs"),
      "one run": await get(`/v1/tasks/leaky/runs/${failed.id}`),
      "CTS task events": await get("/v1/status/tasks?include=events"),
      "task": await get("/v1/tasks/leaky"),
      "/v1/events": events,
      "/ui/overview.json": await get("/ui/overview.json"),
      "/metrics": await get("/metrics"),
      "PATCH ?run=now error body": runNowBody,
      "POST ?run=now error body": createNowBody,
      "daemon log": logs,
    };
    expect(outputs["CTS task events"]).toContain("<redacted>");
    expect(outputs["/v1/events"]).toContain("<redacted>");
    expect(outputs["/ui/overview.json"]).toContain("<redacted>");
    expect(logs).toContain("<redacted>");
    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of [...spellings(apiKey), consulToken, apiToken]) {
        expect(text.includes(secret), `${where} holds a secret`).toBe(false);
      }
      // Colour codes, raw or JSON-escaped, in no answer, event, record or JSON log line.
      expect(text.includes(ESC) || text.includes("\\u001b"), `${where} holds an ANSI escape code`).toBe(false);
    }
  }, 180_000);
});
