/**
 * The daemon and `task create` against permanent Consul query errors, over real HTTP with the
 * embedded Consul server: a task whose query Consul rejects (unknown datacenter, namespace on CE)
 * is marked errored with Consul's message while the other tasks keep running; POST /v1/tasks
 * answers a task Consul rejects with the error and creates nothing.
 * CTS: hcat never retries a 400 (`view.go`) and CTS's daemon then exits from its once phase;
 * cts-runtime keeps the healthy tasks running instead (issue 10 item 4).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CtsApiClient, ApiRequestError } from "../../../core/cli/api-client.ts";
import type { TaskConfig } from "../../../core/plugin-api/mod.ts";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { clearRecordingLog, recorded } from "../../../harness/driver-recording/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import type { FaultHook } from "../../../dev-servers/consul/src/http/fault-hook.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

function servicesTask(name: string, condition: Partial<Record<"datacenter" | "namespace" | "filter", string>> = {}): TaskConfig {
  const base = testTask(name, { driver: "recording" });
  return { ...base, condition: { ...base.condition, ...condition } } as TaskConfig;
}

async function registerWeb(consul: TestConsulDevServer, id: string): Promise<void> {
  const response = await fetch(`${consul.url}/v1/agent/service/register`, {
    method: "PUT",
    body: JSON.stringify({ ID: id, Name: "web", Port: 80 }),
  });
  expect(response.status).toBe(200);
}

type StatusBody = Record<string, { status: string; events?: { success: boolean; error: { message: string } | null }[] }>;

describe("permanent Consul query errors in the daemon and task create", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiKernel;
  let client: CtsApiClient;
  /** Set by the last test: Consul starts refusing the healthy task's query. */
  let refuseWeb = false;
  const faults: FaultHook = (request) =>
    refuseWeb && request.path === "/v1/health/service/web" && !request.query.has("dc") && !request.query.has("ns")
      ? { status: 403, body: "Permission denied: token lacks permission 'service:read' on \"web\"" }
      : undefined;

  beforeAll(async () => {
    clearRecordingLog();
    consul = await startConsulDevServer({ faults });
    await registerWeb(consul, "web-1");
    const base = apiConfig();
    daemon = await startApiKernel({
      config: apiConfig({
        consul: { ...base.consul, address: consul.address },
        tasks: [
          servicesTask("good"),
          servicesTask("bad_dc", { datacenter: "dc9" }),
          servicesTask("bad_ns", { namespace: "team" }),
          servicesTask("bad_filter", { filter: `Service.Bogus == "x"` }),
        ],
      }),
    });
    client = new CtsApiClient(daemon.url);
  });
  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
  });

  it("marks the rejected tasks errored with Consul's message and keeps the others running", async () => {
    const status = await until("every task has a status", async () => {
      const body = (await client.request("GET", "/v1/status/tasks?include=events")).body as StatusBody;
      return ["good", "bad_dc", "bad_ns", "bad_filter"].every((name) => body[name] && body[name].status !== "unknown") ? body : undefined;
    });
    expect(status.good!.status).toBe("successful");
    expect(status.bad_dc!.status).toBe("errored");
    expect(status.bad_dc!.events![0]!.error!.message).toContain("500 No path to datacenter");
    expect(status.bad_ns!.status).toBe("errored");
    expect(status.bad_ns!.events![0]!.error!.message)
      .toContain(`400 Invalid query parameter: "ns" - Namespaces are a Consul Enterprise feature`);
    expect(status.bad_filter!.status).toBe("errored");
    expect(status.bad_filter!.events![0]!.error!.message)
      .toContain(`500 Failed to create boolean expression evaluator: Selector "Service.Bogus" is not valid`);
    expect(recorded("apply", "bad_dc")).toHaveLength(0);
    expect(recorded("apply", "bad_ns")).toHaveLength(0);
    expect(recorded("apply", "bad_filter")).toHaveLength(0);

    // The healthy task still follows Consul.
    expect(recorded("apply", "good")).toHaveLength(1);
    await registerWeb(consul, "web-2");
    await until("a second apply of the healthy task", () => (recorded("apply", "good").length >= 2 ? true : undefined));
  });

  it("a rejected task never applies, even when run through the API", async () => {
    await client.request("PATCH", "/v1/tasks/bad_dc?run=now", { enabled: true }).catch((error: unknown) => error);
    expect(recorded("apply", "bad_dc")).toHaveLength(0);
  });

  const createCases = [
    { name: "new_dc", condition: { datacenter: "dc9" }, expect: "500 No path to datacenter" },
    { name: "new_ns", condition: { namespace: "team" }, expect: `400 Invalid query parameter: "ns" - Namespaces are a Consul Enterprise feature` },
    {
      name: "new_filter",
      condition: { filter: `Service.Bogus == "x"` },
      expect: `500 Failed to create boolean expression evaluator: Selector "Service.Bogus" is not valid`,
    },
  ];
  for (const testCase of createCases) {
    it(`answers task create with Consul's error and creates nothing (${testCase.expect.slice(0, 30)})`, async () => {
      const task = { name: testCase.name, module: "./module", condition: { services: { names: ["web"], ...testCase.condition } } };
      const error = await client.request("POST", "/v1/tasks", { task }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiRequestError);
      expect((error as ApiRequestError).status).toBe(400);
      expect((error as ApiRequestError).message).toContain(`Cannot create task "${testCase.name}"`);
      expect((error as ApiRequestError).message).toContain(testCase.expect);
      await expect(client.request("GET", `/v1/tasks/${testCase.name}`)).rejects.toMatchObject({ status: 404 });
      expect(recorded("apply", testCase.name)).toHaveLength(0);
    });
  }

  it("marks a running task errored when Consul starts refusing its query, and runs it again once allowed", async () => {
    const status = async () => ((await client.request("GET", "/v1/status/tasks/good?include=events")).body as StatusBody).good!;
    refuseWeb = true;
    // Wakes the parked blocking query; its successor is refused.
    await registerWeb(consul, "web-3");
    // The registration also runs the task on the data it brought; the refusal must still show after that run.
    const errored = await until("the task errored", async () => {
      const current = await status();
      return current.status === "errored" || current.status === "critical" ? current : undefined;
    });
    // Whether or not a run on web-3's data (from the query parked before the refusal) happens, once
    // the engine is idle the task must still show the refusal.
    await daemon.tasks.idle();
    expect(["errored", "critical"]).toContain((await status()).status);
    expect(errored.events![0]!.error!.message).toContain("403 Permission denied");
    refuseWeb = false;
    const applies = recorded("apply", "good").length;
    await registerWeb(consul, "web-4");
    await until("a run once Consul allows the query again", () => (recorded("apply", "good").length > applies ? true : undefined));
    expect((await status()).status).toBe("successful");
  });
});
