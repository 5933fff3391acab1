/** @module Unit tests of the `services` map builder: keys, attributes, status aggregation, order. */
import { describe, expect, it } from "vitest";
import { aggregateStatus, buildServicesMap, type ServiceEntryBody } from "../../../plugins/consul-inputs/mod.ts";

function entry(id: string, node: string, extra: { service?: string; checks?: string[]; address?: string } = {}): ServiceEntryBody {
  return {
    Node: { ID: `id-${node}`, Node: node, Address: `10.0.0.${node.length}`, Datacenter: "dc1", TaggedAddresses: { wan: "1.1.1.1", lan: "10.0.0.1" }, Meta: {} },
    Service: { ID: id, Service: extra.service ?? "web", Tags: ["b", "a"], Address: extra.address ?? "", Port: 80, Meta: { v: "1" } },
    Checks: (extra.checks ?? ["passing"]).map((status, i) => ({ CheckID: status === "maint" ? "_node_maintenance" : `c${i}`, Status: status === "maint" ? "critical" : status })),
  };
}

describe("aggregateStatus", () => {
  it("ranks maintenance over critical over warning over passing", () => {
    expect(aggregateStatus([])).toBe("passing");
    expect(aggregateStatus(null)).toBe("passing");
    expect(aggregateStatus([{ Status: "passing" }, { Status: "warning" }])).toBe("warning");
    expect(aggregateStatus([{ Status: "critical" }, { Status: "warning" }])).toBe("critical");
    expect(aggregateStatus([{ Status: "critical" }, { CheckID: "_service_maintenance:web", Status: "critical" }])).toBe("maintenance");
    expect(aggregateStatus([{ CheckID: "_node_maintenance", Status: "critical" }, { Status: "passing" }])).toBe("maintenance");
  });

  it("gives an empty status when a check reports an unknown status", () => {
    expect(aggregateStatus([{ Status: "passing" }, { Status: "bogus" }])).toBe("");
  });
});

describe("buildServicesMap", () => {
  it("renders every attribute, falling back to the node address and sorting tags", () => {
    const map = buildServicesMap({ web: [entry("web-1", "n1")] }, { order: "names", cts_user_defined_meta: { team: "x" } });
    expect(map).toEqual({
      "web-1.n1.dc1": {
        id: "web-1", name: "web", kind: "", address: "10.0.0.2", port: 80, meta: { v: "1" }, tags: ["a", "b"],
        namespace: "", status: "passing", node: "n1", node_id: "id-n1", node_address: "10.0.0.2",
        node_datacenter: "dc1", node_tagged_addresses: { lan: "10.0.0.1", wan: "1.1.1.1" }, node_meta: {},
        cts_user_defined_meta: { team: "x" },
      },
    });
    expect(Object.keys(map["web-1.n1.dc1"]!.node_tagged_addresses)).toEqual(["lan", "wan"]);
  });

  it("prefers the service address and includes a namespace in the key when Consul reports one", () => {
    const e = entry("api", "n1", { address: "192.168.0.9" });
    const ns: ServiceEntryBody = { ...e, Service: { ...e.Service, Namespace: "default" } };
    const map = buildServicesMap({ api: [ns] }, { order: "names" });
    expect(Object.keys(map)).toEqual(["api.n1.default.dc1"]);
    expect(map["api.n1.default.dc1"]!.address).toBe("192.168.0.9");
    expect(map["api.n1.default.dc1"]!.cts_user_defined_meta).toEqual({});
  });

  it("orders names-based maps by service name, then node, then id", () => {
    const map = buildServicesMap({
      web: [entry("web-2", "b"), entry("web-1", "b"), entry("web-3", "a")],
      api: [entry("api-1", "z", { service: "api" })],
    }, { order: "names" });
    expect(Object.keys(map)).toEqual(["api-1.z.dc1", "web-3.a.dc1", "web-1.b.dc1", "web-2.b.dc1"]);
  });

  it("orders regexp-based maps by node, then id, across services", () => {
    const map = buildServicesMap({
      web: [entry("web-2", "b"), entry("web-1", "c")],
      api: [entry("api-1", "c", { service: "api" }), entry("api-2", "a", { service: "api" })],
    }, { order: "regexp" });
    expect(Object.keys(map)).toEqual(["api-2.a.dc1", "web-2.b.dc1", "api-1.c.dc1", "web-1.c.dc1"]);
  });

  it("aggregates each instance's own checks", () => {
    const map = buildServicesMap({ web: [entry("w1", "n1", { checks: ["passing", "warning"] }), entry("w2", "n2", { checks: ["maint"] })] }, { order: "names" });
    expect(map["w1.n1.dc1"]!.status).toBe("warning");
    expect(map["w2.n2.dc1"]!.status).toBe("maintenance");
  });

  it("tolerates entries with missing fields", () => {
    const map = buildServicesMap({ web: [{ Node: { Node: "n1" }, Service: { ID: "w" } }] }, { order: "names" });
    expect(map["w.n1"]).toMatchObject({ meta: {}, tags: [], node_meta: {}, port: 0, address: "", status: "passing" });
  });

  it("keeps the previous object of every unchanged instance, replaces changed ones, and freezes instances", () => {
    // Issue 16: one changed instance among many must leave the others (and what is cached per object) alone.
    const first = buildServicesMap({ web: [entry("web-1", "n1"), entry("web-2", "n2")] }, { order: "names", cts_user_defined_meta: { team: "x" } });
    const next = buildServicesMap(
      { web: [entry("web-1", "n1"), entry("web-2", "n2", { checks: ["critical"] }), entry("web-3", "n3")] },
      { order: "names", cts_user_defined_meta: { team: "x" } },
      first,
    );
    expect(Object.keys(next)).toEqual(["web-1.n1.dc1", "web-2.n2.dc1", "web-3.n3.dc1"]);
    expect(next["web-1.n1.dc1"]).toBe(first["web-1.n1.dc1"]);
    expect(next["web-2.n2.dc1"]).not.toBe(first["web-2.n2.dc1"]);
    expect(next["web-2.n2.dc1"]!.status).toBe("critical");
    expect(Object.isFrozen(next["web-3.n3.dc1"])).toBe(true);
    expect(Object.isFrozen(next["web-3.n3.dc1"]!.tags)).toBe(true);
    // Consul's own answer is not sorted in place (other subscribers of the query share it).
    const raw = entry("web-4", "n4");
    buildServicesMap({ web: [raw] }, { order: "names" });
    expect(raw.Service!.Tags).toEqual(["b", "a"]);
  });
});
