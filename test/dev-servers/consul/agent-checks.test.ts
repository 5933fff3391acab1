/** Agent checks: TTL expiry and updates, HTTP checks really polled, registration defaults and errors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serveHttp } from "../../../core/runtime/serve-http.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { client } from "./http-client.ts";

let server: TestConsulDevServer;
let http: ReturnType<typeof client>;
let target: HttpServerHandle;
let targetStatus = 200;

beforeAll(async () => {
  server = await startConsulDevServer();
  http = client(server.url);
  target = await serveHttp({ fetch: () => new Response("target says hi", { status: targetStatus }) });
});

afterAll(async () => {
  await target.close();
  await server.stop();
});

interface Check {
  CheckID: string;
  Status: string;
  Output: string;
  Type: string;
  Name: string;
  Definition: Record<string, unknown>;
}

/** Blocks on /health/checks/<service> until `predicate` holds for the check. */
async function waitForCheck(service: string, checkId: string, predicate: (check: Check) => boolean): Promise<Check> {
  let index = 0;
  for (;;) {
    const res = await http.get(`/v1/health/checks/${service}?index=${index}&wait=10s`);
    const check = (res.body as Check[]).find((c) => c.CheckID === checkId);
    if (check && predicate(check)) return check;
    index = res.index;
  }
}

describe("agent checks", () => {
  it("registers the CTS-style body with Consul's defaults", async () => {
    const res = await http.put("/v1/agent/service/register", {
      ID: "cts-host", Name: "consul-terraform-sync", Tags: ["cts"], Port: 8558, Check: null,
      Checks: [{
        CheckID: "cts-host-health", Name: "CTS Health Status", Interval: "10s", Timeout: "2s",
        HTTP: `${target.url}/v1/health`, Method: "GET", Status: "critical",
        Notes: "Check created by Consul-Terraform-Sync", TLSSkipVerify: true, DeregisterCriticalServiceAfter: "30m",
      }],
    });
    expect(res.status).toBe(200);
    const services = (await http.get("/v1/agent/services")).body as Record<string, Record<string, unknown>>;
    expect(services["cts-host"]).toMatchObject({ Service: "consul-terraform-sync", Port: 8558, Weights: { Passing: 1, Warning: 1 } });
    const check = await waitForCheck("consul-terraform-sync", "cts-host-health", (c) => c.Status === "passing");
    expect(check).toMatchObject({ Type: "http", Name: "CTS Health Status" });
    expect(check.Output).toMatch(/200 OK Output: target says hi/);
    expect(check.Definition).toMatchObject({ Interval: "10s", Timeout: "2s", DeregisterCriticalServiceAfter: "30m0s" });
    expect((await http.put("/v1/agent/service/deregister/cts-host")).status).toBe(200);
    expect(await http.put("/v1/agent/service/deregister/cts-host")).toMatchObject({
      status: 404,
      text: "Unknown service ID \"cts-host\". Ensure that the service ID is passed, not the service name.",
    });
  });

  it("maps HTTP 429 to warning and other failures to critical", async () => {
    targetStatus = 429;
    await http.put("/v1/agent/service/register", {
      Name: "polled", Check: { HTTP: `${target.url}/`, Interval: "50ms" },
    });
    await waitForCheck("polled", "service:polled", (c) => c.Status === "warning");
    targetStatus = 503;
    await waitForCheck("polled", "service:polled", (c) => c.Status === "critical");
    targetStatus = 200;
    await waitForCheck("polled", "service:polled", (c) => c.Status === "passing");
    await http.put("/v1/agent/service/deregister/polled");
  });

  it("TTL checks expire to critical with the last output, and update/pass reset them", async () => {
    await http.put("/v1/agent/service/register", { Name: "ttl", Checks: [{ TTL: "150ms" }, { TTL: "1h", Name: "long" }] });
    const ids = Object.keys((await http.get("/v1/agent/checks")).body as object);
    expect(ids).toEqual(expect.arrayContaining(["service:ttl:1", "service:ttl:2"]));
    await http.put("/v1/agent/check/update/service:ttl:1", { Status: "passing", Output: "fine" });
    const expired = await waitForCheck("ttl", "service:ttl:1", (c) => c.Status === "critical");
    expect(expired.Output).toBe("TTL expired (last output before timeout follows): fine");
    await http.put("/v1/agent/check/pass/service:ttl:1?note=back");
    expect(await waitForCheck("ttl", "service:ttl:1", (c) => c.Status === "passing")).toMatchObject({ Output: "back" });
  });

  it("answers Consul's errors for unknown and non-TTL checks", async () => {
    expect(await http.put("/v1/agent/check/pass/nope")).toMatchObject({
      status: 404, text: "Unknown check ID \"nope\". Ensure that the check ID is passed, not the check name.",
    });
    await http.put("/v1/agent/check/register", { Name: "plain", ID: "plain", HTTP: `${target.url}/`, Interval: "1h" });
    expect(await http.put("/v1/agent/check/pass/plain")).toMatchObject({
      status: 500, text: "CheckID \"plain\" does not have associated TTL",
    });
    expect((await http.get("/v1/agent/check/pass/plain")).status).toBe(405);
  });
});

describe("maintenance mode", () => {
  it("adds and removes the critical maintenance checks (npm consul's agent.service.maintenance)", async () => {
    await http.put("/v1/agent/service/register", { Name: "maint", Check: { TTL: "1h", Status: "passing" } });
    expect((await http.get("/v1/health/service/maint?passing")).body).toHaveLength(1);
    expect((await http.put("/v1/agent/service/maintenance/maint?enable=true&reason=upgrade")).status).toBe(200);
    expect((await http.get("/v1/health/service/maint?passing")).body).toEqual([]);
    const checks = (await http.get("/v1/health/checks/maint")).body as Check[];
    expect(checks.find((c) => c.CheckID === "_service_maintenance:maint")).toMatchObject({
      Status: "critical", Name: "Service Maintenance Mode",
    });
    await http.put("/v1/agent/service/maintenance/maint?enable=false");
    expect((await http.get("/v1/health/service/maint?passing")).body).toHaveLength(1);
    await http.put("/v1/agent/maintenance?enable=true");
    expect((await http.get("/v1/health/service/maint?passing")).body).toEqual([]);
    await http.put("/v1/agent/maintenance?enable=false");
    expect((await http.get("/v1/health/service/maint?passing")).body).toHaveLength(1);
    expect(await http.put("/v1/agent/maintenance")).toMatchObject({ status: 400, text: "Missing value for enable" });
  });
});
