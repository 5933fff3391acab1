/**
 * Error paths against a real HTTP peer scripted per test: 500/429 retries, 4xx surfacing,
 * Retry-After, secrets never logged, and cancellation of in-flight requests.
 */
import { afterEach, describe, expect, it } from "vitest";
import { consulQuery, isCtsError, isPermanentConsulError, type ConsulQueryResult } from "../../../core/plugin-api/mod.ts";
import type { ClosableConsulClient } from "../../../plugins/consul-client/mod.ts";
import { retryAfterMs } from "../../../plugins/consul-client/src/backoff.ts";
import { testClient } from "../../../harness/consul-client/client-options.ts";
import { answer, type ScriptedServer, startScriptedServer } from "./scripted-server.ts";

const TOKEN = "f00dfeed-secret-token-4711";
const LONG_403 =
  "Permission denied: token with AccessorID 'a1b2c3d4-0000-1111-2222-333344445555' lacks permission 'key:read' on \"app/x\"";

let server: ScriptedServer | undefined;
let client: ClosableConsulClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function nextResult(): { promise: Promise<ConsulQueryResult>; push(result: ConsulQueryResult): void } {
  const queue: ConsulQueryResult[] = [];
  let waiter: ((result: ConsulQueryResult) => void) | undefined;
  return {
    get promise() {
      const ready = queue.shift();
      return ready ? Promise.resolve(ready) : new Promise<ConsulQueryResult>((resolve) => (waiter = resolve));
    },
    push(result) {
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w(result);
      } else queue.push(result);
    },
  };
}

describe("consul client error paths", () => {
  it("retries 500s until Consul answers, reporting one outage", async () => {
    server = await startScriptedServer((_req, res, n) => {
      if (n <= 3) return answer(res, 500, "rpc error making call: No cluster leader");
      answer(res, 200, JSON.stringify(["web"]), { "x-consul-index": "7" });
    });
    const made = await testClient(server.address);
    client = made.client;
    const result = await client.query(consulQuery("/v1/catalog/services"));
    expect(result).toEqual({ data: ["web"], index: 7 });
    expect(server.requests).toHaveLength(4);
    const levels = made.logger.lines.map((line) => line.level);
    expect(levels.filter((level) => level === "WARN")).toHaveLength(1);
    expect(levels.filter((level) => level === "DEBUG").length).toBeGreaterThanOrEqual(2);
    const warn = made.logger.lines.find((line) => line.level === "WARN")!;
    expect(warn.fields.error).toContain("500 rpc error making call: No cluster leader");
    const info = made.logger.lines.filter((line) => line.level === "INFO");
    expect(info.map((line) => line.message)).toEqual(["connection to Consul restored"]);
    expect(client.connectionState()).toMatchObject({ healthy: true, failures: 0 });
  });

  it("reports the outage in connectionState while retrying, and surfaces it with retry: false", async () => {
    server = await startScriptedServer((_req, res) => answer(res, 503, "rpc error making call: No cluster leader"));
    const made = await testClient(server.address);
    client = made.client;
    const error = await client.query(consulQuery("/v1/health/service/web"), { retry: false })
      .catch((e: unknown) => e);
    expect(isCtsError(error)).toBe(true);
    expect((error as Error).message).toBe("Cannot query /v1/health/service/web: Unexpected response code: 503 rpc error making call: No cluster leader");
    expect(isPermanentConsulError(error)).toBe(false);
    const state = client.connectionState();
    expect(state.healthy).toBe(false);
    expect(state.failures).toBe(1);
    expect(state.lastError).toContain("No cluster leader");
  });

  // Issue 10 item 4. CTS's hcat retries 500s (view.go) and gives up after its retries; these two
  // 500 texts never change on retry, so cts-runtime treats them like a 400 (never retried by CTS).
  for (const text of ["No path to datacenter", "Failed to create boolean expression evaluator: Selector \"Bogus\" is not valid"]) {
    it(`fails at once on the permanent 500 "${text.slice(0, 28)}", even with retries on, and Consul stays healthy`, async () => {
      server = await startScriptedServer((_req, res) => answer(res, 500, text));
      const made = await testClient(server.address);
      client = made.client;
      const error = await client.query(consulQuery("/v1/health/service/web", { dc: "dc9" })).catch((e: unknown) => e);
      expect((error as Error).message).toBe(`Cannot query /v1/health/service/web?dc=dc9: Unexpected response code: 500 ${text}`);
      expect(isPermanentConsulError(error)).toBe(true);
      expect(server.requests).toHaveLength(1);
      expect(client.connectionState().healthy).toBe(true);
    });
  }

  it("tells a watch's error listener once per distinct permanent error, and keeps watching", async () => {
    server = await startScriptedServer((_req, res, n) => {
      if (n <= 3) return answer(res, 400, `Invalid query parameter: "ns" - Namespaces are a Consul Enterprise feature`);
      answer(res, 200, "[]", { "x-consul-index": "5" });
    });
    const made = await testClient(server.address);
    client = made.client;
    const errors: Error[] = [];
    const results: ConsulQueryResult[] = [];
    const abort = new AbortController();
    const watching = client.watch(consulQuery("/v1/health/service/web", { ns: "team" }), (r) => results.push(r), abort.signal,
      (e) => errors.push(e));
    await until(() => results.length > 0);
    abort.abort();
    await watching;
    expect(errors).toHaveLength(1);
    expect(isPermanentConsulError(errors[0])).toBe(true);
    expect(errors[0]!.message).toContain("400 Invalid query parameter");
    expect(results[0]).toEqual({ data: [], index: 5 });
  });

  it("honours 429 with Retry-After and then succeeds", async () => {
    server = await startScriptedServer((_req, res, n) => {
      if (n === 1) return answer(res, 429, "Too Many Requests", { "retry-after": "0" });
      answer(res, 200, "[]", { "x-consul-index": "3" });
    });
    const made = await testClient(server.address);
    client = made.client;
    expect(await client.query(consulQuery("/v1/health/service/api"))).toEqual({ data: [], index: 3 });
    expect(made.logger.lines.find((line) => line.level === "WARN")?.fields.error).toContain("429");
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs("Sat, 21 Nov 2026 10:00:05 GMT", Date.parse("Sat, 21 Nov 2026 10:00:00 GMT"))).toBe(5000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });

  it("surfaces a 403 from query at once, keeping Consul's text", async () => {
    server = await startScriptedServer((_req, res) => answer(res, 403, LONG_403));
    const made = await testClient(server.address, { token: TOKEN });
    client = made.client;
    const error = await client.query(consulQuery("/v1/kv/app/x")).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`Cannot query /v1/kv/app/x: Unexpected response code: 403 ${LONG_403}`);
    expect((error as { code?: string }).code).toBe("CTS_ERR_CONSUL");
    expect(server.requests).toHaveLength(1);
    expect(client.connectionState().healthy).toBe(true);
    const kvError = await client.kvGet("app/x").catch((e: unknown) => e);
    expect((kvError as Error).message).toBe(`Cannot read KV key "app/x": Unexpected response code: 403 ${LONG_403}`);
  });

  it("keeps a watch alive through 4xx answers (logged once, then backoff) and delivers once allowed", async () => {
    server = await startScriptedServer((req, res, n) => {
      if (n <= 3) return answer(res, 403, "ACL not found");
      if (req.url.searchParams.get("index") === "9") return; // block until the client goes away
      answer(res, 200, JSON.stringify({ web: [] }), { "x-consul-index": "9" });
    });
    const made = await testClient(server.address);
    client = made.client;
    const results = nextResult();
    const stop = new AbortController();
    const watching = client.watch(consulQuery("/v1/catalog/services"), results.push, stop.signal);
    expect(await results.promise).toEqual({ data: { web: [] }, index: 9 });
    stop.abort();
    await watching;
    const warns = made.logger.lines.filter((line) => line.level === "WARN");
    expect(warns).toHaveLength(1);
    expect(warns[0]!.fields.error).toBe("Cannot query /v1/catalog/services: Unexpected response code: 403 ACL not found");
  });

  it("sends the token as X-Consul-Token and never logs it or puts it in errors", async () => {
    server = await startScriptedServer((req, res, n) => {
      // A hostile/buggy peer echoing the token back must not leak it either.
      const echoed = `bad token ${String(req.headers["x-consul-token"])} ${req.url.searchParams.get("token") ?? ""}`;
      if (n <= 2) return answer(res, 500, echoed);
      if (n === 3) return answer(res, 400, echoed);
      if (n === 4) return answer(res, 200, "true");
      answer(res, 500, echoed);
    });
    const made = await testClient(server.address, { token: TOKEN });
    client = made.client;
    await client.query(consulQuery("/v1/kv/a")).catch(() => undefined);
    const put = await client.kvPut("a", "1");
    expect(put).toBe(true);
    const errors: string[] = [];
    await client.kvGet("a").then(() => undefined, (e: Error) => errors.push(e.message));
    await client.query(consulQuery("/v1/kv/b"), { retry: false }).catch((e: Error) => errors.push(e.message));
    for (const request of server.requests) expect(request.headers["x-consul-token"]).toBe(TOKEN);
    expect(server.requests.every((request) => !request.url.search.includes(TOKEN))).toBe(true);
    expect(made.logger.lines.length).toBeGreaterThan(0);
    expect(made.logger.text()).not.toContain(TOKEN);
    expect(made.logger.text()).toContain("<redacted>");
    for (const message of errors) expect(message).not.toContain(TOKEN);
    expect(JSON.stringify(client.connectionState())).not.toContain(TOKEN);
  });

  it("cancels an in-flight blocking query at once when the signal aborts", async () => {
    server = await startScriptedServer(() => undefined); // never answers
    const made = await testClient(server.address);
    client = made.client;
    const stop = new AbortController();
    const pending = client.query(consulQuery("/v1/kv/x"), { index: 5, wait: "10m", signal: stop.signal });
    await until(() => server!.requests.length === 1);
    stop.abort();
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe("AbortError");
    const seen = await server.abandoned;
    expect(seen.url.searchParams.get("index")).toBe("5");
    expect(seen.url.searchParams.get("wait")).toBe("10m");
  });

  it("ends a watch when its signal aborts, and the server sees the request dropped", async () => {
    server = await startScriptedServer((req, res) => {
      if (req.url.searchParams.get("index")) return; // block
      answer(res, 200, "[]", { "x-consul-index": "4" });
    });
    const made = await testClient(server.address);
    client = made.client;
    const results = nextResult();
    const stop = new AbortController();
    const watching = client.watch(consulQuery("/v1/health/service/db"), results.push, stop.signal);
    expect((await results.promise).index).toBe(4);
    await until(() => server!.requests.length === 2);
    stop.abort();
    await expect(watching).resolves.toBeUndefined();
    expect((await server.abandoned).url.searchParams.get("index")).toBe("4");
  });

  it("resets to index 0 when the index goes backwards, and polls gently when it is missing", async () => {
    const indexes = ["10", "12", "5", "5", "0"];
    server = await startScriptedServer((req, res, n) => {
      const header = indexes[n - 1];
      if (header === undefined) return; // block from here on
      answer(res, 200, JSON.stringify(n), { "x-consul-index": header });
    });
    const made = await testClient(server.address);
    client = made.client;
    const seen: ConsulQueryResult[] = [];
    const results = nextResult();
    const stop = new AbortController();
    const watching = client.watch(consulQuery("/v1/catalog/nodes"), (r) => {
      seen.push(r);
      results.push(r);
    }, stop.signal);
    await results.promise; // 10
    await results.promise; // 12
    await results.promise; // 5, after the reset
    await until(() => server!.requests.length >= 6);
    stop.abort();
    await watching;
    const sent = server.requests.map((request) => request.url.searchParams.get("index"));
    // 10 → block on 10 → 12 → block on 12 → 5 (backwards) → reset → 5 → 0 (no index) → reset.
    expect(sent.slice(0, 6)).toEqual([null, "10", "12", null, "5", null]);
    expect(seen.map((r) => r.index)).toEqual([10, 12, 5]);
  });

  it("warns once when open blocking queries approach Consul's per-client connection limit", async () => {
    server = await startScriptedServer((req, res) => {
      if (req.url.searchParams.get("index")) return; // block
      answer(res, 200, "[]", { "x-consul-index": "2" });
    });
    const made = await testClient(server.address);
    client = made.client;
    const stop = new AbortController();
    const watches = Array.from({ length: 185 }, (_, i) =>
      client!.watch(consulQuery(`/v1/health/service/s${i}`), () => undefined, stop.signal));
    await until(() => server!.requests.filter((r) => r.url.searchParams.has("index")).length === 185);
    expect(client.socketCount()).toBe(185);
    stop.abort();
    await Promise.all(watches);
    const warns = made.logger.lines.filter((line) => line.level === "WARN");
    expect(warns).toHaveLength(1);
    expect(warns[0]!.message).toContain("http_max_conns_per_client");
  });

  it("keeps blocking queries open past the idle-socket timeout, and closes idle sockets", async () => {
    server = await startScriptedServer((req, res) => {
      if (req.url.searchParams.get("index")) {
        setTimeout(() => answer(res, 200, '["late"]', { "x-consul-index": "8" }), 400);
        return;
      }
      answer(res, 200, "[]", { "x-consul-index": "2" });
    });
    const made = await testClient(server.address, { transport: { idle_conn_timeout: "100ms" } });
    client = made.client;
    const first = await client.query(consulQuery("/v1/kv/idle"));
    const second = await client.query(consulQuery("/v1/kv/idle"), { index: first.index, wait: "1s" });
    expect(second).toEqual({ data: ["late"], index: 8 });
    await until(() => client!.socketCount() === 0);
    expect(made.logger.lines.filter((line) => line.level === "WARN")).toEqual([]);
  });

  it("sends basic auth when configured and keeps the password out of logs and errors", async () => {
    const password = "hunter2-pässword";
    server = await startScriptedServer((req, res) => answer(res, 500, `denied ${String(req.headers.authorization)}`));
    const made = await testClient(server.address, { auth: { enabled: true, username: "cts", password } });
    client = made.client;
    const error = await client.query(consulQuery("/v1/status/leader"), { retry: false }).catch((e: Error) => e);
    const header = String(server.requests[0]!.headers.authorization);
    expect(header).toBe(`Basic ${Buffer.from(`cts:${password}`).toString("base64")}`);
    expect((error as Error).message).toBe("Cannot query /v1/status/leader: Unexpected response code: 500 denied <redacted>");
    expect(made.logger.text()).not.toContain(password);
    expect(made.logger.text()).not.toContain(header.slice(6));
  });
});
