/**
 * CTS's e2e TestE2E_StatusEndpoints exactly as CTS runs it: `start --client-type=development` with
 * CTS's fakeHandlerConfig (terraform_provider "fake-sync" blocks, one failing after its first run,
 * one succeeding, one task disabled). The development client runs no Terraform; the fake-sync
 * providers act as CTS's fake post-apply handlers. (api-status.test.ts runs the same scenario on
 * real terraform with a module standing in for the fake provider.)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { freePort } from "../../../harness/free-port.ts";
import {
  ctsModules, registerService, seedCtsCatalog, startCtsDaemon, taskStatuses, waitForEvent, waitForReadiness,
  type CtsDaemon,
} from "./cts-api-support.ts";

const failure = "fake_handler_failure_task";
const success = "fake_handler_success_task";
const disabled = "disabled_task";

/** CTS's fakeHandlerConfig + appendConsulBlock + appendTerraformBlock (path = the daemon's cwd). */
function fakeHandlerConfig(wd: string, consul: string, port: number): string {
  const task = (name: string, provider: string, extra = "") => `
task {
	name = "${name}"
	description = "basic e2e task with fake handler"
	${extra}
	providers = ["${provider}"]
	module = "./local_instances_file"
	condition "services" {
		names = ["api"]
	}
}
`;
  return `
working_dir = "${wd}"

buffer_period {
	enabled = false
}

terraform_provider "fake-sync" {
	alias = "failure"
	name = "failure"
	err = true
	success_first = true
}

terraform_provider "fake-sync" {
	alias = "success"
	name = "success"
	err = false
}
${task(failure, "fake-sync.failure")}${task(success, "fake-sync.success")}${task(disabled, "fake-sync.success", "enabled = false")}
consul {
  address = "${consul}"
}

driver "terraform" {
	log = true
	path = "${ctsModules}"
}
port = ${port}
`;
}

describe("CTS e2e api_test.go TestE2E_StatusEndpoints with --client-type=development", () => {
  let consul: TestConsulDevServer;
  let daemon: CtsDaemon;
  const dir = mkdtempSync(join(tmpdir(), "cts-e2e-devmode-"));

  beforeAll(async () => {
    consul = await startConsulDevServer();
    await seedCtsCatalog(consul.url);
    const port = await freePort();
    writeFileSync(join(dir, "config.hcl"), fakeHandlerConfig(join(dir, "sync-tasks"), consul.address, port));
    daemon = startCtsDaemon(join(dir, "config.hcl"), ctsModules, port, ["--client-type=development"]);
    await waitForReadiness(daemon);
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("statuses, providers and events as CTS's test expects them", async () => {
    const now = Date.now();
    await registerService(consul.url, { ID: "api-2", Name: "api", Address: "5.6.7.8", Port: 8080 });
    await waitForEvent(daemon, failure, now);
    await waitForEvent(daemon, success, now);

    const entry = (name: string, status: string, enabled: boolean, provider: string) => ({
      task_name: name, status, enabled, providers: [provider], services: [],
      events_url: enabled ? `/v1/status/tasks/${name}?include=events` : "",
    });
    expect(await taskStatuses(daemon)).toEqual({
      [success]: entry(success, "successful", true, "fake-sync.success"),
      [failure]: entry(failure, "errored", true, "fake-sync.failure"),
      [disabled]: entry(disabled, "unknown", false, "fake-sync.success"),
    });

    const withEvents = await taskStatuses(daemon, "?include=events");
    for (const [name, provider] of [[success, "fake-sync.success"], [failure, "fake-sync.failure"]] as const) {
      const events = withEvents[name]!.events!;
      expect(events.length).toBeGreaterThanOrEqual(2);
      expect(events.length).toBeLessThanOrEqual(4);
      events.forEach((event, ix) => {
        expect(event.task_name).toBe(name);
        expect(event.config!.source).toBe(join(ctsModules, "local_instances_file"));
        expect(event.config!.providers).toEqual([provider]);
        // The failing task's first run (the oldest event) succeeded: success_first.
        expect(event.success).toBe(name === success || ix === events.length - 1);
      });
    }
    expect(withEvents[disabled]).not.toHaveProperty("events");
    expect(daemon.output()).toContain("FakeHandler: 'failure'");

    const summary = (await (await fetch(`${daemon.url}/v1/status`)).json() as any).task_summary;
    expect(summary.status.successful).toBe(1);
    expect(summary.status.unknown).toBe(1);
    expect(summary.status.errored + summary.status.critical).toBe(1);
    expect(summary.enabled).toEqual({ true: 2, false: 1 });
  }, 60_000);
});
