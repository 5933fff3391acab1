/**
 * Issue 24 item 4 end to end: the daemon (`node dist/main.js start`), the real Terraform, the embedded
 * Consul. A change arrives while the task's working directory cannot be written, the run fails; once
 * the directory is writable again, the retry applies the change with no new change in Consul. On main
 * nothing ran until the next change. (The test runs as root, which file modes do not stop, so a
 * directory stands where the run must write its terraform.tfvars: the write fails as in a read-only
 * directory.)
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import type { RunRecord } from "../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type DaemonProcess, startDaemon } from "../helpers/daemon-with-api.ts";
import { until } from "../../harness/until.ts";
import { registerService } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const tmp = tempDir("retry-runs");
const module = join(tmp.path, "module");
const seenFile = join(tmp.path, "seen.txt");
const taskDir = join(tmp.path, "sync-tasks", "heal-task");
let consul: TestConsulDevServer;
let daemon: DaemonProcess;

async function runs(): Promise<RunRecord[]> {
  const answer = await daemon.api("GET", "/v1/tasks/heal-task/runs?limit=100");
  return answer?.status === 200 ? [...(answer.json["runs"] as RunRecord[])].reverse() : [];
}

beforeAll(async () => {
  consul = await startConsulDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  mkdirSync(module, { recursive: true });
  writeFileSync(join(module, "main.tf"), `variable "services" {
  type = any
}
resource "terraform_data" "seen" {
  triggers_replace = sort(keys(var.services))
  provisioner "local-exec" {
    command = "echo '\${join(",", sort(keys(var.services)))}' > ${seenFile}"
  }
}
`);
  daemon = await startDaemon({
    dir: tmp.path,
    env: terraformTestEnv(),
    config: (port) => `port = ${port}
log_level = "INFO"
working_dir = ${JSON.stringify(join(tmp.path, "sync-tasks"))}
consul {
  address = "${consul.address}"
  service_registration { enabled = false }
}
buffer_period { enabled = false }
plugin "task-engine" {
  source  = "builtin:task-engine"
  options = { retry = { max_retries = 20, backoff = "500ms", max_backoff = "1s" } }
}
task {
  name   = "heal-task"
  module = ${JSON.stringify(module)}
  condition "services" { names = ["web"] }
}
`,
  });
  await until("the start-up run", async () => ((await runs()).some((run) => run.outcome === "applied") ? true : undefined), 60_000, 100);
}, 90_000);

afterAll(async () => {
  await daemon?.stop();
  await consul?.stop();
  tmp.remove();
});

describe("a failed run retried by the daemon", () => {
  beforeEach(() => onTestFailed(() => console.log(daemon.output().slice(-5000))));

  it("applies the change once the working directory is writable again, with no new change in Consul", async () => {
    const tfvars = join(taskDir, "terraform.tfvars");
    rmSync(tfvars);
    mkdirSync(join(tfvars, "in-the-way"), { recursive: true });
    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    const failed = await until("the failed run", async () => (await runs()).find((run) => run.outcome === "failed"), 60_000, 100);
    expect(failed.trigger.kind).toBe("dependency");
    rmSync(tfvars, { recursive: true });

    const healed = await until("a retry that applies", async () =>
      (await runs()).find((run) => run.trigger.kind === "retry" && run.outcome === "applied"), 60_000, 100);
    expect(healed.previous_error).toEqual(expect.any(String));
    expect(healed.trigger.detail).toMatch(/^retry \d+ of 20$/);
    expect(readFileSync(seenFile, "utf8").trim()).toMatch(/^web-1\.[^,]+,web-2\./);
    const status = await daemon.api("GET", "/v1/status/tasks/heal-task");
    expect((status!.json["heal-task"] as { status: string }).status).toBe("successful");
  }, 120_000);
});
