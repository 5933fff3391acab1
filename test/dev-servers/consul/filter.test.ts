/** `?filter=` in the go-bexpr v0.1.2 grammar, on health entries and over HTTP (§4 of the reference). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFilter } from "../../../dev-servers/consul/src/bexpr/filter.ts";
import { SERVICE_ENTRY_SCHEMA } from "../../../dev-servers/consul/src/bexpr/schemas.ts";
import { ApiError } from "../../../dev-servers/consul/src/api-error.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { client } from "./http-client.ts";

const entry = (id: string, extra: { tags?: string[]; meta?: Record<string, string>; port?: number; statuses?: string[] }) => ({
  Node: { ID: "n", Node: "node-1", Address: "10.0.0.1", Datacenter: "dc1", TaggedAddresses: {}, Meta: { rack: "r12" } },
  Service: {
    ID: id, Service: "web", Tags: extra.tags ?? [], Meta: extra.meta ?? {}, Port: extra.port ?? 80, Address: "",
    Weights: { Passing: 1, Warning: 1 }, EnableTagOverride: false,
  },
  Checks: (extra.statuses ?? ["passing"]).map((Status, i) => ({ CheckID: `c${i}`, Status, ServiceTags: extra.tags ?? [] })),
});

const rows = [
  entry("web-1", { tags: ["prod", "v1"], meta: { version: "2", "team-a": "yes" }, port: 8080 }),
  entry("web-2", { tags: ["dev"], meta: { version: "1" }, statuses: ["passing", "critical"] }),
  entry("web-3", { tags: [], statuses: ["warning"] }),
];

const ids = (expression: string) => {
  const predicate = compileFilter(expression, SERVICE_ENTRY_SCHEMA);
  return rows.filter((row) => predicate(row)).map((row) => row.Service.ID);
};

const error = (expression: string): string => {
  try {
    compileFilter(expression, SERVICE_ENTRY_SCHEMA);
  } catch (caught) {
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).status).toBe(500);
    return (caught as ApiError).message;
  }
  throw new Error(`expected ${expression} to be refused`);
};

describe("filter expressions", () => {
  it("matches the documented examples", () => {
    expect(ids(`Service.Tags contains "prod"`)).toEqual(["web-1"]);
    expect(ids(`"prod" in Service.Tags`)).toEqual(["web-1"]);
    expect(ids(`"prod" not in Service.Tags`)).toEqual(["web-2", "web-3"]);
    expect(ids(`Service.Meta.version == "2"`)).toEqual(["web-1"]);
    expect(ids(`Service.Meta["team-a"] != ""`)).toEqual(["web-1", "web-2", "web-3"]);
    expect(ids(`Node.Meta.rack matches "^r[0-9]+$"`)).toEqual(["web-1", "web-2", "web-3"]);
    expect(ids(`Checks.Status == critical`)).toEqual(["web-2"]);
    expect(ids(`Checks.Status != passing`)).toEqual(["web-2", "web-3"]);
    expect(ids(`Service.Port == 8080`)).toEqual(["web-1"]);
    expect(ids(`not (Service.ID == "web-2")`)).toEqual(["web-1", "web-3"]);
    expect(ids(`Service.Tags is empty`)).toEqual(["web-3"]);
    expect(ids(`Service.Meta is not empty and Service.Tags not contains "dev"`)).toEqual(["web-1"]);
    expect(ids(`Service.ID == "web-3" or Service.ID == "web-1" and Service.Port == 80`)).toEqual(["web-3"]);
    expect(ids(`(Service.ID == "web-3" or Service.ID == "web-1") and Service.Port == 80`)).toEqual(["web-3"]);
    expect(ids(`Service.ID matches "web-[12]" and Service.ID not matches "2$"`)).toEqual(["web-1"]);
    expect(ids(`"eb-" in Service.ID`)).toEqual(["web-1", "web-2", "web-3"]);
    expect(ids(`Checks.ServiceTags contains "v1"`)).toEqual(["web-1"]);
  });

  it("treats a missing map key as go-bexpr does", () => {
    expect(ids(`Service.Meta.version == "1"`)).toEqual(["web-2"]);
    expect(ids(`Service.Meta.version != "1"`)).toEqual(["web-1", "web-3"]);
    expect(ids(`Service.Meta.version not matches "."`)).toEqual(["web-3"]);
    expect(ids(`Service.Meta.version matches "."`)).toEqual(["web-1", "web-2", "web-3"]);
    expect(ids(`"version" in Service.Meta`)).toEqual(["web-1", "web-2"]);
  });

  it("refuses bad expressions with Consul's 500 text", () => {
    expect(error(`Service.ID == web-2`)).toMatch(/^Failed to create boolean expression evaluator: /);
    expect(error(`Service.Nope == "x"`)).toBe(
      `Failed to create boolean expression evaluator: Selector "Service.Nope" is not valid`);
    expect(error(`Service.Port contains "1"`)).toBe(
      `Failed to create boolean expression evaluator: Invalid match operator "In" for selector "Service.Port"`);
    expect(error(`Service.Port == abc`)).toMatch(/Failed to coerce value "abc" for selector "Service.Port"/);
    expect(error(`Service.Meta.version is empty`)).toMatch(/Invalid match operator "Is Empty"/);
    expect(error(`Service.ID matches "("`)).toMatch(/Failed to compile regular expression/);
    expect(error(`(Service.ID == "a"`)).toMatch(/rule "grouping": Unmatched parentheses/);
    expect(error(`Service.ID == "a" and`)).toMatch(/no match found/);
    expect(error(Array.from({ length: 33 }, () => `Service.ID == "a"`).join(" or "))).toMatch(/exceeds the limit \(32\)/);
  });
});

describe("filters over HTTP", () => {
  let server: TestConsulDevServer;
  let http: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await startConsulDevServer();
    http = client(server.url);
    await http.put("/v1/agent/service/register", { Name: "api", ID: "api-1", Tags: ["blue"], Meta: { v: "1" } });
    await http.put("/v1/agent/service/register", { Name: "api", ID: "api-2", Tags: ["green"], Meta: { v: "2" } });
  });

  afterAll(async () => {
    await server.stop();
  });

  const q = (expression: string) => encodeURIComponent(expression);

  it("filters health, catalog and agent listings", async () => {
    const health = await http.get(`/v1/health/service/api?filter=${q(`Service.Meta.v == "2"`)}`);
    expect((health.body as { Service: { ID: string } }[]).map((e) => e.Service.ID)).toEqual(["api-2"]);
    const catalog = await http.get(`/v1/catalog/service/api?filter=${q(`ServiceTags contains "blue"`)}`);
    expect((catalog.body as { ServiceID: string }[]).map((e) => e.ServiceID)).toEqual(["api-1"]);
    const services = await http.get(`/v1/catalog/services?filter=${q(`ServiceTags contains "green"`)}`);
    expect(services.body).toEqual({ api: ["green"] });
    const agent = await http.get(`/v1/agent/services?filter=${q(`ID == "api-1"`)}`);
    expect(Object.keys(agent.body as object)).toEqual(["api-1"]);
    const checks = await http.get(`/v1/health/state/any?filter=${q(`CheckID == "serfHealth"`)}`);
    expect(checks.body).toHaveLength(1);
  });

  it("answers a bad filter with 500 before blocking", async () => {
    const res = await http.get(`/v1/health/service/api?index=999999999999999&filter=${q("Service.Port ==")}`);
    expect(res.status).toBe(500);
    expect(res.text).toMatch(/^Failed to create boolean expression evaluator: /);
  });
});
