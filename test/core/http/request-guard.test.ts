/**
 * The router's doors (beyond CTS), rule by rule on the kernel's router itself: browser writes from
 * other origins, CORS by the allowlist ("*" is CTS's wildcard), the Host on a loopback listener,
 * the bearer token with public paths, and secrets masked in answers but not in streams.
 */
import { describe, expect, it } from "vitest";
import { KernelHttpRouter } from "../../../core/http/http-router.ts";
import { SecretList } from "../../../core/kernel/secret-list.ts";

const API = "http://127.0.0.1:8558";

function router(settings: { token?: string; allowedOrigins?: string[]; listenAddress?: string } = {}, secrets = new SecretList()) {
  const r = new KernelHttpRouter(secrets);
  r.mount("/v1", (request) => Response.json({ path: new URL(request.url).pathname, method: request.method }), {
    public: (path) => path === "/v1/health",
  });
  r.guard.configure({ token: settings.token ?? "", allowedOrigins: settings.allowedOrigins ?? [], listenAddress: settings.listenAddress ?? "0.0.0.0" });
  return r;
}

const call = (r: KernelHttpRouter, method: string, path: string, headers: Record<string, string> = {}) =>
  r.fetch(new Request(`${API}${path}`, { method, headers: { host: "127.0.0.1:8558", ...headers } }));

describe("request guard", () => {
  it("refuses writes a browser sends from another origin; reads, curl and the API's own origin pass", async () => {
    const r = router();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const refused = await call(r, method, "/v1/tasks", { origin: "http://evil.example" });
      expect(refused.status, method).toBe(403);
      expect((await refused.json()).error.message).toMatch(/from a web page at http:\/\/evil\.example: .*api\.allowed_origins/);
    }
    expect((await call(r, "POST", "/v1/tasks", { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await call(r, "POST", "/v1/tasks", { origin: "null" })).status).toBe(403);
    expect((await call(r, "POST", "/v1/tasks")).status).toBe(200);
    expect((await call(r, "POST", "/v1/tasks", { origin: API, "sec-fetch-site": "same-origin" })).status).toBe(200);
    const read = await call(r, "GET", "/v1/tasks", { origin: "http://evil.example" });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("grants CORS to allowed origins only; \"*\" is CTS's wildcard; preflights answer 200", async () => {
    const r = router({ allowedOrigins: ["https://ops.example.com"] });
    const allowed = await call(r, "PATCH", "/v1/tasks/x", { origin: "https://ops.example.com" });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://ops.example.com");
    expect(allowed.headers.get("vary")).toBe("Origin");
    const preflight = await call(r, "OPTIONS", "/v1/tasks", { origin: "https://ops.example.com" });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    const stranger = await call(r, "OPTIONS", "/v1/tasks", { origin: "https://other.example.com" });
    expect(stranger.status).toBe(200);
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull();
    const wildcard = await call(router({ allowedOrigins: ["*"] }), "POST", "/v1/tasks", { origin: "http://anyone.example" });
    expect(wildcard.status).toBe(200);
    expect(wildcard.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers only loopback Host names (and allowed origins' hosts, behind a proxy) when listening on loopback", async () => {
    const loopback = router({ listenAddress: "127.0.0.1", allowedOrigins: ["https://cts.example.com"] });
    expect((await call(loopback, "GET", "/v1/health", { host: "localhost:8558" })).status).toBe(200);
    expect((await call(loopback, "GET", "/v1/health", { host: "[::1]:8558" })).status).toBe(200);
    expect((await call(loopback, "GET", "/v1/health", { host: "cts.example.com" })).status).toBe(200);
    expect((await call(loopback, "GET", "/v1/health", { host: "rebound.example:8558" })).status).toBe(403);
    expect((await call(router(), "GET", "/v1/health", { host: "cts-01.example.com:8558" })).status).toBe(200);
  });

  it("needs the bearer token except on public paths and preflights", async () => {
    const r = router({ token: "s3cret-token" });
    const missing = await call(r, "GET", "/v1/status");
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await call(r, "GET", "/v1/status", { authorization: "Bearer wrong-token" })).status).toBe(401);
    expect((await call(r, "GET", "/nowhere", { authorization: "Bearer s3cret-token" })).status).toBe(404);
    expect((await call(r, "GET", "/nowhere")).status).toBe(401);
    expect((await call(r, "GET", "/v1/status", { authorization: "bearer s3cret-token" })).status).toBe(200);
    expect((await call(r, "GET", "/v1/health")).status).toBe(200);
    expect((await call(r, "OPTIONS", "/v1/status")).status).toBe(200);
  });

  it("masks known secrets in JSON and text answers, and leaves event streams unbuffered", async () => {
    const secrets = new SecretList();
    secrets.add("hunter2-secret", "test");
    const r = new KernelHttpRouter(secrets);
    r.mount("/json", () => Response.json({ error: { message: "token hunter2-secret refused" } }, { status: 500 }));
    r.mount("/stream", () => new Response(new ReadableStream({ start() {} }), { headers: { "content-type": "text/event-stream" } }));
    const json = await r.fetch(new Request(`${API}/json`));
    expect(json.status).toBe(500);
    expect(await json.json()).toEqual({ error: { message: "token <redacted> refused" } });
    // Buffering a stream that never ends would never answer: it comes back at once.
    const stream = await r.fetch(new Request(`${API}/stream`));
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    await stream.body!.cancel();
  });
});
