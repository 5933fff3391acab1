/**
 * @module The data builders fed with answers captured from the embedded Consul server over HTTP
 * (not hand-written JSON), so the mapping is checked against what a Consul-compatible server sends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildCatalogServices, buildConsulKv, buildServicesMap, compileRe2, type KvEntryBody, type ServiceEntryBody,
} from "../../../plugins/consul-inputs/mod.ts";
import { type ConsulHarness, startConsulHarness } from "./helpers/consul-harness.ts";

let consul: ConsulHarness;
beforeAll(async () => {
  consul = await startConsulHarness();
  await consul.request("PUT", "/v1/catalog/register", {
    Node: "node-b", Address: "10.1.0.2", TaggedAddresses: { lan: "10.1.0.2", wan: "1.2.3.5" }, NodeMeta: { rack: "r2" },
    Service: { ID: "web-b", Service: "web", Tags: ["v1"], Address: "192.168.1.5", Port: 8081, Meta: {} },
    Checks: [
      { CheckID: "web-b-http", Name: "http", Status: "passing", ServiceID: "web-b" },
      { CheckID: "_service_maintenance:web-b", Name: "Service Maintenance Mode", Status: "critical", ServiceID: "web-b" },
    ],
  });
  await consul.request("PUT", "/v1/catalog/register", {
    Node: "node-a", Address: "10.1.0.1", TaggedAddresses: { wan: "1.2.3.4", lan: "10.1.0.1" }, NodeMeta: { rack: "r1" },
    Service: { ID: "web-a", Service: "web", Tags: ["zeta", "alpha"], Port: 8080, Meta: { version: "2" } },
    Checks: [
      { CheckID: "web-a-http", Name: "http", Status: "passing", ServiceID: "web-a", Output: "200 OK" },
      { CheckID: "web-a-disk", Name: "disk", Status: "warning", ServiceID: "web-a", Output: "85% full" },
    ],
  });
  await consul.request("PUT", "/v1/catalog/register", {
    // Registering updates the node too unless told not to (as in Consul).
    Node: "node-a", Address: "10.1.0.1", SkipNodeUpdate: true, Service: { ID: "db", Service: "db", Tags: ["primary", "primary-dc1"], Port: 5432 },
  });
});
afterAll(async () => {
  await consul?.close();
});

describe("builders on captured answers", () => {
  it("maps /v1/health/service entries to CTS service instances", async () => {
    const entries = await consul.get("/v1/health/service/web") as ServiceEntryBody[];
    const nodeIds = Object.fromEntries(entries.map((e) => [e.Node!.Node!, e.Node!.ID ?? ""]));
    const map = buildServicesMap({ web: entries }, { order: "names", cts_user_defined_meta: { team: "edge" } });
    expect(map).toEqual({
      "web-a.node-a.dc1": {
        id: "web-a", name: "web", kind: "", address: "10.1.0.1", port: 8080, meta: { version: "2" },
        tags: ["alpha", "zeta"], namespace: "", status: "warning", node: "node-a", node_id: nodeIds["node-a"],
        node_address: "10.1.0.1", node_datacenter: "dc1", node_tagged_addresses: { lan: "10.1.0.1", wan: "1.2.3.4" },
        node_meta: { rack: "r1" }, cts_user_defined_meta: { team: "edge" },
      },
      "web-b.node-b.dc1": {
        id: "web-b", name: "web", kind: "", address: "192.168.1.5", port: 8081, meta: {}, tags: ["v1"], namespace: "",
        status: "maintenance", node: "node-b", node_id: nodeIds["node-b"], node_address: "10.1.0.2",
        node_datacenter: "dc1", node_tagged_addresses: { lan: "10.1.0.2", wan: "1.2.3.5" }, node_meta: { rack: "r2" },
        cts_user_defined_meta: { team: "edge" },
      },
    });
  });

  it("renders nothing for the passing-only answer when every instance has a failing check", async () => {
    const entries = await consul.get("/v1/health/service/web?passing=1") as ServiceEntryBody[];
    expect(buildServicesMap({ web: entries }, { order: "names" })).toEqual({});
  });

  it("maps /v1/catalog/services to name → sorted tags", async () => {
    const body = await consul.get("/v1/catalog/services") as Record<string, string[]>;
    expect(buildCatalogServices(body, (name) => compileRe2("^(web|db)$").test(name))).toEqual({
      db: ["primary", "primary-dc1"], web: ["alpha", "v1", "zeta"],
    });
    const onRackOne = await consul.get("/v1/catalog/services?node-meta=rack:r1") as Record<string, string[]>;
    expect(Object.keys(buildCatalogServices(onRackOne, (name) => name !== "consul"))).toEqual(["db", "web"]);
    const onRackTwo = await consul.get("/v1/catalog/services?node-meta=rack:r2") as Record<string, string[]>;
    expect(buildCatalogServices(onRackTwo, (name) => name !== "consul")).toEqual({ web: ["v1"] });
  });

  it("maps /v1/kv answers, single and recursive, decoding UTF-8 and empty values", async () => {
    await consul.kvPut("cap/a", "ünïcode");
    await consul.kvPut("cap/b", "");
    await consul.kvPut("cap/b/c", "nested");
    const single = await consul.get("/v1/kv/cap/a") as KvEntryBody[];
    expect(buildConsulKv(single, { path: "cap/a", recurse: false })).toEqual({ "cap/a": "ünïcode" });
    const tree = await consul.get("/v1/kv/cap?recurse") as KvEntryBody[];
    expect(buildConsulKv(tree, { path: "cap", recurse: true })).toEqual({ "cap/a": "ünïcode", "cap/b": "", "cap/b/c": "nested" });
  });
});
