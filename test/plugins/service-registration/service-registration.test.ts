/**
 * Service registration against the embedded Consul server over real HTTP: the daemon registers
 * itself with CTS's default check, the server's HTTP check reaches `/v1/health` and turns
 * passing, graceful stop deregisters; a 403 is logged with a hint and the daemon keeps serving;
 * 429/5xx answers (injected through the dev server's fault hook) are retried until registered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CtsConfig } from "../../../core/plugin-api/mod.ts";
import { defaultCheck, serviceRegistration } from "../../../plugins/service-registration/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import type { FaultHook } from "../../../dev-servers/consul/src/http/fault-hook.ts";
import { apiConfig, startApiKernel } from "../http-api/helpers/api-kernel.ts";

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

function configFor(consul: TestConsulDevServer, overrides: Partial<CtsConfig["consul"]> = {}): CtsConfig {
  const base = apiConfig();
  return apiConfig({
    id: "cts-reg-test",
    consul: {
      ...base.consul,
      address: consul.address,
      service_registration: { ...base.consul.service_registration, enabled: true },
      ...overrides,
    },
  });
}

interface AgentCheck {
  readonly CheckID: string;
  readonly Status: string;
  readonly ServiceID: string;
  readonly Output: string;
}

describe("service registration", () => {
  let consul: TestConsulDevServer;
  beforeAll(async () => {
    consul = await startConsulDevServer();
  });
  afterAll(async () => {
    await consul?.stop();
  });

  it("builds CTS's registration and default check", () => {
    const config = configFor(consul);
    const service = serviceRegistration({ ...config, port: 8558 });
    expect(service).toMatchObject({ ID: "cts-reg-test", Name: "consul-terraform-sync", Tags: ["cts"], Port: 8558 });
    expect(service.Address).toBeUndefined();
    expect(defaultCheck({ ...config, port: 8558 })).toEqual({
      Name: "CTS Health Status",
      CheckID: "cts-reg-test-health",
      Notes: "Check created by Consul-Terraform-Sync",
      DeregisterCriticalServiceAfter: "30m",
      Status: "critical",
      HTTP: "http://localhost:8558/v1/health",
      Method: "GET",
      Interval: "10s",
      Timeout: "2s",
      TLSSkipVerify: true,
    });
    const tls = { ...config, port: 8558, tls: { ...config.tls, enabled: true } };
    expect(defaultCheck(tls).HTTP).toBe("https://localhost:8558/v1/health");
  });

  it("registers on start, the health check turns passing, and deregisters on stop", async () => {
    const daemon = await startApiKernel({ config: configFor(consul), extraPlugins: ["service-registration"] });
    try {
      const check = await until("a passing check", async () => {
        const checks = await (await fetch(`${consul.url}/v1/agent/checks`)).json() as Record<string, AgentCheck>;
        const found = checks["cts-reg-test-health"];
        return found?.Status === "passing" ? found : undefined;
      });
      expect(check.ServiceID).toBe("cts-reg-test");
      expect(check.Output).toContain("/v1/health");
      const services = await (await fetch(`${consul.url}/v1/agent/services`)).json() as Record<string, { Port: number; Tags: string[] }>;
      expect(services["cts-reg-test"]).toMatchObject({ Port: Number(new URL(daemon.url).port), Tags: ["cts"] });
    } finally {
      await daemon.stop();
    }
    const after = await (await fetch(`${consul.url}/v1/agent/services`)).json() as Record<string, unknown>;
    expect(after["cts-reg-test"]).toBeUndefined();
  });

  it("logs a service:write hint on 403, does not retry it, and keeps serving", async () => {
    // CTS (client/consul.go isResponseCodeRetryable): 4xx other than 429 is never retried.
    let registerCalls = 0;
    const faults: FaultHook = (request) => {
      if (request.path === "/v1/agent/service/register") registerCalls++;
      return undefined;
    };
    const secured = await startConsulDevServer({ aclToken: "root-token", faults });
    const daemon = await startApiKernel({
      config: configFor(secured, { token: "" }),
      extraPlugins: ["service-registration"],
    });
    try {
      const line = await until("the registration error", async () =>
        daemon.logs.find((entry) => entry.includes("error registering Consul-Terraform-Sync as a service with Consul")));
      expect(line).toContain("service:write");
      expect((await fetch(`${daemon.url}/v1/health`)).status).toBe(200);
      expect(registerCalls).toBe(1);
      expect(daemon.logs.some((entry) => entry.includes("retrying"))).toBe(false);
    } finally {
      await daemon.stop();
      await secured.stop();
    }
  });

  it("retries 429 and 5xx answers with backoff until registered", async () => {
    // CTS retries RegisterService on 429 and 5xx (client/consul.go); cts-runtime keeps going until it is registered.
    const answers = [429, 503];
    const faults: FaultHook = (request) => {
      if (request.method !== "PUT" || request.path !== "/v1/agent/service/register") return undefined;
      const status = answers.shift();
      return status === undefined ? undefined : { status, body: status === 429 ? "rate limit exceeded" : "No cluster leader" };
    };
    const limited = await startConsulDevServer({ faults });
    const daemon = await startApiKernel({ config: configFor(limited), extraPlugins: ["service-registration"] });
    try {
      await until("the registered service", async () => {
        const services = await (await fetch(`${limited.url}/v1/agent/services`)).json() as Record<string, unknown>;
        return services["cts-reg-test"];
      });
      expect(answers).toEqual([]);
      const retries = daemon.logs.filter((entry) => entry.includes("error registering Consul-Terraform-Sync as a service with Consul, retrying"));
      expect(retries).toHaveLength(2);
      expect(retries[0]).toContain("429");
      expect(daemon.logs.some((entry) => entry.includes("Consul-Terraform-Sync registered as a service with Consul"))).toBe(true);
    } finally {
      await daemon.stop();
      await limited.stop();
    }
  });

  it("stops retrying promptly when the daemon stops", async () => {
    let registerCalls = 0;
    const faults: FaultHook = (request) => {
      if (request.path !== "/v1/agent/service/register") return undefined;
      registerCalls++;
      return { status: 500, body: "rpc error making call: No cluster leader" };
    };
    const down = await startConsulDevServer({ faults });
    const daemon = await startApiKernel({ config: configFor(down), extraPlugins: ["service-registration"] });
    try {
      await until("two attempts", async () => (registerCalls >= 2 ? true : undefined));
    } finally {
      // The retry sleeps up to seconds; stop must not wait for it (nor register afterwards).
      await daemon.stop();
    }
    const calls = registerCalls;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(registerCalls).toBe(calls);
    await down.stop();
  });
});
