/**
 * How the dev server holds and wakes many parked queries (issue 16 item 4): deadlines share timers,
 * identical watchers woken by one change share one answer body, and a service's health read sees
 * exactly its own instances through the per-service index as instances move, go and come back.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { client, until } from "./http-client.ts";

let server: TestConsulDevServer;
let http: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startConsulDevServer();
  http = client(server.url);
});

afterAll(async () => {
  await server.stop();
});

const ids = async (service: string) =>
  ((await http.get(`/v1/health/service/${service}`)).body as { Service: { ID: string } }[]).map((e) => e.Service.ID);

describe("dev server wake-up", () => {
  it("200 watchers parked with the same wait share a few deadline timers, and all wake on the change", async () => {
    await http.put("/v1/kv/wake/key", "0");
    const first = await http.get("/v1/kv/wake/key");
    const watchers = Array.from({ length: 200 }, () => http.get(`/v1/kv/wake/key?index=${first.index}&wait=60s`));
    await until(() => server.state.hub.size === 200);
    // One timer per deadline bucket (1/64 of the 60 s wait, ~0.9 s): a few, however slowly they parked.
    expect(server.state.hub.timers).toBeGreaterThan(0);
    expect(server.state.hub.timers).toBeLessThan(20);
    await http.put("/v1/kv/wake/key", "1");
    const answers = await Promise.all(watchers);
    expect(answers.every((a) => a.status === 200 && atob((a.body as { Value: string }[])[0]!.Value) === "1")).toBe(true);
    expect(server.state.hub.size).toBe(0);
    expect(server.state.hub.timers).toBe(0);
  });

  it("a short wait still ends with the unchanged answer once its deadline bucket expires", async () => {
    const first = await http.get("/v1/kv/wake/key");
    const answer = await http.get(`/v1/kv/wake/key?index=${first.index}&wait=10ms`);
    expect(answer.status).toBe(200);
    expect(answer.index).toBe(first.index);
    expect(server.state.hub.timers).toBe(0);
  });

  it("woken watchers get the shared headers with Consul's header names, each its own full answer", async () => {
    // Consul (Go's net/http) writes canonical header names such as `X-Consul-Index`; the shared
    // header object must reach the wire as written (it used to go out lowercased on Node).
    const first = await http.get("/v1/kv/wake/raw");
    const url = new URL(server.url);
    const raw = () => new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /v1/kv/wake/raw?index=${first.index}&wait=60s HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
      });
      let reply = "";
      socket.on("data", (chunk) => (reply += chunk.toString()));
      socket.on("end", () => resolve(reply));
      socket.on("error", reject);
    });
    const watchers = Array.from({ length: 20 }, raw);
    await until(() => server.state.hub.size === 20);
    await http.put("/v1/kv/wake/raw", "changed");
    const replies = await Promise.all(watchers);
    for (const reply of replies) {
      expect(reply).toMatch(/^HTTP\/1\.1 200 /);
      expect(reply).toMatch(/\r\nX-Consul-Index: \d+\r\n/);
      expect(reply).toContain("\r\nContent-Type: application/json\r\n");
      expect(reply).toContain(btoa("changed"));
    }
  });

  it("health reads follow instances that change service, are deregistered, or lose their node", async () => {
    // Consul's catalog: an instance re-registered under another name leaves the first service's answer.
    const register = (body: Record<string, unknown>) => http.put("/v1/catalog/register", JSON.stringify(body));
    await register({ Node: "wake-n1", Address: "10.9.0.1", Service: { ID: "w1", Service: "wake-a", Port: 1 } });
    await register({ Node: "wake-n2", Address: "10.9.0.2", Service: { ID: "w1", Service: "wake-a", Port: 1 } });
    await register({ Node: "WAKE-N1", Address: "10.9.0.1", Service: { ID: "w2", Service: "Wake-A", Port: 2 } });
    expect(await ids("wake-a")).toEqual(["w1", "w2", "w1"]);
    await register({ Node: "wake-n1", Address: "10.9.0.1", Service: { ID: "w1", Service: "wake-b", Port: 1 } });
    expect(await ids("wake-a")).toEqual(["w2", "w1"]);
    expect(await ids("wake-b")).toEqual(["w1"]);
    await http.put("/v1/catalog/deregister", JSON.stringify({ Node: "wake-n2", ServiceID: "w1" }));
    expect(await ids("wake-a")).toEqual(["w2"]);
    await http.put("/v1/catalog/deregister", JSON.stringify({ Node: "wake-n1" }));
    expect(await ids("wake-a")).toEqual([]);
    expect(await ids("wake-b")).toEqual([]);
    await server.restart();
    await register({ Node: "wake-n3", Address: "10.9.0.3", Service: { ID: "w3", Service: "wake-a", Port: 3 } });
    await server.restart();
    expect(await ids("wake-a")).toEqual(["w3"]);
  });
});
