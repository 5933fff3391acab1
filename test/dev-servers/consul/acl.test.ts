/** Optional ACLs: management token, per-token prefix rules, token sources, 403 texts. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { client } from "./http-client.ts";

let server: TestConsulDevServer;
let root: ReturnType<typeof client>;
let app: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startConsulDevServer({
    aclToken: "root",
    aclRules: {
      "app-token": [
        { resource: "key", prefix: "app/", policy: "write" },
        { resource: "key", prefix: "app/secret/", policy: "deny" },
        { resource: "key", prefix: "shared/", policy: "read" },
        { resource: "service", prefix: "web", policy: "write" },
        { resource: "node", prefix: "", policy: "read" },
        { resource: "session", prefix: "", policy: "write" },
      ],
    },
  });
  root = client(server.url, { token: "root" });
  app = client(server.url, { token: "app-token" });
  await root.put("/v1/kv/app/secret/pw", "x");
  await root.put("/v1/kv/app/config", "x");
  await root.put("/v1/kv/shared/flag", "x");
  await root.put("/v1/kv/other/k", "x");
  await root.put("/v1/agent/service/register", { Name: "db" });
});

afterAll(async () => {
  await server.stop();
});

describe("ACLs", () => {
  it("refuses anonymous and unknown tokens", async () => {
    const anonymous = client(server.url);
    expect(await anonymous.put("/v1/kv/app/x", "v")).toMatchObject({ status: 403, text: "Permission denied" });
    expect(await anonymous.get("/v1/kv/app/config")).toMatchObject({ status: 403 });
    expect(await client(server.url, { token: "who" }).get("/v1/kv/app/config")).toMatchObject({
      status: 403, text: "ACL not found",
    });
    // status endpoints stay open (CTS polls the leader before it has a token in hand)
    expect((await anonymous.get("/v1/status/leader")).status).toBe(200);
  });

  it("applies the longest matching prefix rule", async () => {
    expect((await app.put("/v1/kv/app/new", "v")).body).toBe(true);
    expect((await app.get("/v1/kv/app/config")).status).toBe(200);
    expect((await app.get("/v1/kv/app/secret/pw")).status).toBe(403);
    expect((await app.get("/v1/kv/shared/flag")).status).toBe(200);
    expect((await app.put("/v1/kv/shared/flag", "v")).status).toBe(403);
    expect((await app.get("/v1/kv/other/k")).status).toBe(403);
  });

  it("filters listings instead of refusing them", async () => {
    const listed = await app.get("/v1/kv/?keys");
    expect(listed.body).toEqual(["app/config", "app/new", "shared/flag"]);
    expect(Object.keys((await app.get("/v1/catalog/services")).body as object)).toEqual([]);
    await root.put("/v1/agent/service/register", { Name: "web" });
    expect(Object.keys((await app.get("/v1/catalog/services")).body as object)).toEqual(["web"]);
    expect(await app.put("/v1/agent/service/register", { Name: "db" })).toMatchObject({ status: 403 });
  });

  it("refuses a recursive delete over a prefix it cannot fully write", async () => {
    expect((await app.del("/v1/kv/app/?recurse")).status).toBe(403);
    expect((await root.get("/v1/kv/app/secret/pw")).status).toBe(200);
  });

  it("reads the token from ?token=, X-Consul-Token and Authorization: Bearer", async () => {
    const bare = client(server.url);
    expect((await bare.get("/v1/kv/app/config?token=app-token")).status).toBe(200);
    expect((await bare.get("/v1/kv/app/config", { headers: { "X-Consul-Token": "app-token" } })).status).toBe(200);
    expect((await bare.get("/v1/kv/app/config", { headers: { Authorization: "Bearer app-token" } })).status).toBe(200);
  });

  it("accepts a token granted while it runs, and refuses it once revoked", async () => {
    const rotated = client(server.url, { token: "rotated-token" });
    expect(await rotated.get("/v1/kv/app/config")).toMatchObject({ status: 403, text: "ACL not found" });
    server.acl.grant("rotated-token", [{ resource: "key", prefix: "app/", policy: "read" }]);
    expect((await rotated.get("/v1/kv/app/config")).status).toBe(200);
    expect((await rotated.put("/v1/kv/app/config", "y")).status).toBe(403);
    server.acl.revoke("rotated-token");
    expect(await rotated.get("/v1/kv/app/config")).toMatchObject({ status: 403, text: "ACL not found" });
  });
});
