/**
 * The embedded Consul server's `sessionTtlMinMs` (what lets HA tests fail over in seconds): a lower
 * minimum accepts short TTLs and words the range with it; the default stays Consul's 10s.
 */
import { describe, expect, it } from "vitest";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";

async function createSession(url: string, ttl: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/v1/session/create`, { method: "PUT", body: JSON.stringify({ TTL: ttl, Checks: [] }) });
  return { status: response.status, text: await response.text() };
}

describe("consul-dev-server sessionTtlMinMs", () => {
  it("defaults to Consul's 10s minimum", async () => {
    const server = await startConsulDevServer();
    try {
      expect(await createSession(server.url, "1s")).toEqual({
        status: 500, text: "Invalid Session TTL '1000000000', must be between [10s=24h0m0s]",
      });
      expect((await createSession(server.url, "10s")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("accepts TTLs down to the configured minimum, and expires them at 2×TTL", async () => {
    const server = await startConsulDevServer({ sessionTtlMinMs: 200 });
    try {
      expect(await createSession(server.url, "100ms")).toEqual({
        status: 500, text: "Invalid Session TTL '100000000', must be between [200ms=24h0m0s]",
      });
      const created = await createSession(server.url, "300ms");
      expect(created.status).toBe(200);
      const id = (JSON.parse(created.text) as { ID: string }).ID;
      const info = async () => (await (await fetch(`${server.url}/v1/session/info/${id}`)).json()) as unknown[];
      expect(await info()).toHaveLength(1);
      const deadline = Date.now() + 5000;
      while ((await info()).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await info()).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
