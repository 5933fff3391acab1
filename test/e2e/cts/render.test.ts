/**
 * @module Ports CTS's e2e/render_test.go (TestServicesRenderRace, issues GH-236 and GH-239): with 100
 * services registered before start-up and a task naming all of them, `start -once` renders every one
 * into terraform.tfvars before Terraform runs. CTS drives its controller in-process; here the real CLI
 * (Node, dist/main.js) runs once against the embedded Consul with the real terraform.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { runCli } from "../../../harness/run-cli.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";
import { ctsConfig, ctsModules } from "./services-e2e-harness.ts";

const SERVICES = 100;

describe("CTS e2e render_test.go", () => {
  let consul: TestConsulDevServer;
  const tmp = tempDir("cts-e2e-render");

  beforeAll(async () => {
    consul = await startConsulDevServer();
    // CTS's testutils.TestServices(100): svc-name-N / svc-id-N at 127.0.0.2:30000+N, no tags.
    for (let i = 0; i < SERVICES; i++) {
      const response = await fetch(`${consul.url}/v1/agent/service/register`, {
        method: "PUT",
        body: JSON.stringify({ ID: `svc-id-${i}`, Name: `svc-name-${i}`, Address: "127.0.0.2", Port: 30000 + i, Tags: [] }),
      });
      expect(response.ok).toBe(true);
    }
  });

  afterAll(async () => {
    await consul?.stop();
    tmp.remove();
  });

  it("renders all 100 services to terraform.tfvars in once mode", async () => {
    cpSync(ctsModules, join(tmp.path, "test_modules"), { recursive: true });
    const names = Array.from({ length: SERVICES }, (_, i) => `"svc-name-${i}"`).join(", ");
    writeFileSync(join(tmp.path, "config.hcl"), ctsConfig(0, consul.address, `task {
  name = "serv_rend_race_task"
  module = "./test_modules/null_resource"
  condition "services" {
    names = [${names}]
  }
}
`));
    const out = await runCli("node", ["start", "-config-file=config.hcl", "-once"], {
      cwd: tmp.path, env: terraformTestEnv(), timeoutMs: 120_000,
    });
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const tfvars = readFileSync(join(tmp.path, "work", "serv_rend_race_task", "terraform.tfvars"), "utf8");
    // CTS counts 'svc-name-': unique per service, once per rendered instance.
    expect(tfvars.split("svc-name-").length - 1).toBe(SERVICES);
  }, 150_000);
});
