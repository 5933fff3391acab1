/** KV and txn details real clients depend on (§2.5 of the Consul API reference). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { client } from "./http-client.ts";

let server: TestConsulDevServer;
let http: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startConsulDevServer();
  http = client(server.url);
});

afterAll(async () => {
  await server.stop();
});

interface Entry {
  Key: string;
  Value: string | null;
  Flags: number;
  LockIndex: number;
  Session?: string;
  ModifyIndex: number;
  CreateIndex: number;
}
const entry = async (key: string) => ((await http.get(`/v1/kv/${key}`)).body as Entry[])[0]!;
const session = async (body: object = {}) =>
  ((await http.put("/v1/session/create", { LockDelay: "0s", ...body })).body as { ID: string }).ID;

describe("KV", () => {
  it("round-trips uint64 flags exactly (the Go lock flag is above 2^53)", async () => {
    await http.put("/v1/kv/flags/lock?flags=3304740253564472344", "x");
    const res = await http.get("/v1/kv/flags/lock");
    expect(res.text).toContain("\"Flags\":3304740253564472344");
    expect((await http.put("/v1/kv/flags/bad?flags=abc", "x")).status).toBe(500);
  });

  it("decodes %2F in keys, stores empty values as null, serves ?raw", async () => {
    await http.put("/v1/kv/enc%2Fkey", "bytes\u00e9");
    expect((await entry("enc/key")).Key).toBe("enc/key");
    const raw = await http.get("/v1/kv/enc/key?raw");
    expect(raw.text).toBe("bytes\u00e9");
    expect(raw.headers.get("Content-Type")).toBe("text/plain");
    expect(raw.headers.get("X-Content-Type-Options")).toBe("nosniff");
    await http.put("/v1/kv/empty");
    expect((await entry("empty")).Value).toBeNull();
    expect(await http.get("/v1/kv/")).toMatchObject({ status: 400, text: "Missing key name" });
    expect((await http.call("PATCH", "/v1/kv/x")).headers.get("Allow")).toBe("OPTIONS,GET,PUT,DELETE");
  });

  it("lists keys with a separator like Consul (folders once, 404 for an empty prefix, [] at the root)", async () => {
    for (const key of ["web/bar", "web/foo", "web/subdir/a", "web/subdir/b"]) await http.put(`/v1/kv/${key}`, "v");
    expect((await http.get("/v1/kv/web/?keys&separator=/")).body).toEqual(["web/bar", "web/foo", "web/subdir/"]);
    expect((await http.get("/v1/kv/nothing/?keys")).status).toBe(404);
    expect((await http.get("/v1/kv/nothing/?recurse")).status).toBe(404);
  });

  it("check-and-set on put and delete", async () => {
    expect((await http.put("/v1/kv/cas/k?cas=0", "a")).body).toBe(true);
    expect((await http.put("/v1/kv/cas/k?cas=0", "b")).body).toBe(false);
    const { ModifyIndex } = await entry("cas/k");
    expect((await http.put(`/v1/kv/cas/k?cas=${ModifyIndex + 1}`, "c")).body).toBe(false);
    expect((await http.del(`/v1/kv/cas/k?cas=${ModifyIndex + 1}`)).body).toBe(false);
    expect((await http.del(`/v1/kv/cas/k?cas=${ModifyIndex}`)).body).toBe(true);
    expect((await http.del("/v1/kv/cas/missing?cas=5")).body).toBe(true);
    const conflict = await http.put("/v1/kv/cas/k?cas=0&acquire=abc", "x");
    expect(conflict.status).toBe(400);
    expect(conflict.text).toMatch(/^Conflicting flags: /);
    expect((await http.del("/v1/kv/cas/?recurse&cas=1")).status).toBe(400);
  });

  it("acquire and release: LockIndex, holder, value overwrite, plain writes keep the holder", async () => {
    const a = await session();
    const b = await session();
    expect((await http.put(`/v1/kv/lock/k?acquire=${a}`, "mine")).body).toBe(true);
    expect(await entry("lock/k")).toMatchObject({ LockIndex: 1, Session: a });
    expect((await http.put(`/v1/kv/lock/k?acquire=${b}`, "theirs")).body).toBe(false);
    expect((await http.put(`/v1/kv/lock/k?acquire=${a}`, "again")).body).toBe(true);
    expect((await entry("lock/k")).LockIndex).toBe(1);
    await http.put("/v1/kv/lock/k", "plain");
    expect((await entry("lock/k")).Session).toBe(a);
    expect((await http.put(`/v1/kv/lock/k?release=${b}`)).body).toBe(false);
    expect((await http.put(`/v1/kv/lock/k?release=${a}`)).body).toBe(true);
    const released = await entry("lock/k");
    expect(released.Session).toBeUndefined();
    expect(released.Value).toBeNull();
    expect((await http.put(`/v1/kv/lock/k?acquire=${b}`, "theirs")).body).toBe(true);
    expect((await entry("lock/k")).LockIndex).toBe(2);
    expect(await http.put("/v1/kv/lock/k?acquire=nope", "x")).toMatchObject({ status: 500, text: "invalid session \"nope\"" });
  });

  it("refuses bodies over 512 KiB with 413", async () => {
    const res = await http.put("/v1/kv/big", "x".repeat(512 * 1024 + 1));
    expect(res.status).toBe(413);
    expect(res.text).toMatch(/too large/);
  });
});

describe("txn", () => {
  const b64 = (text: string) => btoa(text);

  it("applies set/cas/get atomically and answers 200 with results", async () => {
    const res = await http.put("/v1/txn", [
      { KV: { Verb: "set", Key: "txn/a", Value: b64("1"), Flags: 3304740253564472344 }, Node: null, Service: null, Check: null },
      { KV: { Verb: "get", Key: "txn/a" } },
    ].map((op) => op));
    expect(res.status).toBe(200);
    const results = (res.body as { Results: { KV: Entry }[] }).Results;
    expect(results[0]!.KV.Value).toBeNull();
    expect(results[1]!.KV.Value).toBe(b64("1"));
    const index = results[0]!.KV.ModifyIndex;
    const cas = await http.put("/v1/txn", [{ KV: { Verb: "cas", Key: "txn/a", Value: b64("2"), Index: index } }]);
    expect(cas.status).toBe(200);
  });

  it("rolls back everything on a failed op and answers 409 with Consul's error text", async () => {
    const before = await entry("txn/a");
    const res = await http.put("/v1/txn", [
      { KV: { Verb: "set", Key: "txn/b", Value: b64("new") } },
      { KV: { Verb: "cas", Key: "txn/a", Value: b64("3"), Index: 1 } },
    ]);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      Results: null, Errors: [{ OpIndex: 1, What: "failed to set key \"txn/a\", index is stale" }],
    });
    expect((await http.get("/v1/kv/txn/b")).status).toBe(404);
    expect((await entry("txn/a")).ModifyIndex).toBe(before.ModifyIndex);
  });

  it("answers 413 'too large' so Terraform switches to chunked state", async () => {
    const big = b64("x".repeat(400 * 1024));
    const res = await http.put("/v1/txn", [{ KV: { Verb: "set", Key: "txn/big", Value: big } }]);
    expect(res.status).toBe(413);
    expect(res.text).toMatch(/too large/);
  });
});
