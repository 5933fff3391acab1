import { describe, expect, it } from "vitest";
import { KernelHttpRouter } from "../../../core/http/http-router.ts";

const request = (path: string) => new Request(`http://127.0.0.1${path}`);
const named = (name: string) => (req: Request) => new Response(`${name} ${new URL(req.url).pathname}`);

describe("kernel HTTP router", () => {
  it("dispatches by the longest matching prefix, on segment boundaries", async () => {
    const router = new KernelHttpRouter();
    router.mount("/v1", named("api"));
    router.mount("/v1/status/", named("status"));
    router.mount("/", named("root"));
    expect(await (await router.fetch(request("/v1/tasks"))).text()).toBe("api /v1/tasks");
    expect(await (await router.fetch(request("/v1/status/tasks"))).text()).toBe("status /v1/status/tasks");
    expect(await (await router.fetch(request("/v1/status"))).text()).toBe("status /v1/status");
    expect(await (await router.fetch(request("/v1x"))).text()).toBe("root /v1x");
  });

  it("answers 404 in CTS's error shape when nothing matches", async () => {
    const router = new KernelHttpRouter();
    router.mount("/v1", named("api"));
    const response = await router.fetch(request("/metrics"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { message: "no handler for /metrics" } });
  });

  it("runs interceptors in order before routing; a Response short-circuits", async () => {
    const router = new KernelHttpRouter();
    const seen: string[] = [];
    router.mount("/v1", named("api"));
    router.intercept((req) => {
      seen.push(`first ${new URL(req.url).pathname}`);
      return undefined;
    });
    router.intercept(async (req) =>
      new URL(req.url).pathname === "/v1/tasks" ? new Response("not leader", { status: 307 }) : undefined
    );
    expect((await router.fetch(request("/v1/tasks"))).status).toBe(307);
    expect(await (await router.fetch(request("/v1/status"))).text()).toBe("api /v1/status");
    expect(seen).toEqual(["first /v1/tasks", "first /v1/status"]);
  });

  it("turns a throwing handler into a 500 JSON error", async () => {
    const router = new KernelHttpRouter();
    router.mount("/v1", () => {
      throw new Error("handler broke");
    });
    const response = await router.fetch(request("/v1/x"));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { message: "handler broke" } });
  });

  it("refuses mounting one prefix twice and a prefix without a leading slash", () => {
    const router = new KernelHttpRouter();
    router.mount("/v1", named("a"));
    expect(() => router.mount("/v1/", named("b"))).toThrow(`Cannot mount "/v1": the prefix is already mounted`);
    expect(() => router.mount("v2", named("c"))).toThrow(/starts with "\/"/);
    expect(router.hasMounts).toBe(true);
    expect(router.url).toBeUndefined();
  });
});
