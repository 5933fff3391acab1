/** @module Unit tests of the catalog_services and consul_kv builders, RE2 patterns and the blocks as their factories receive them. */
import { describe, expect, it } from "vitest";
import { decodeInputBlock } from "../../../core/plugin-testkit/mod.ts";
import {
  buildCatalogServices, buildConsulKv, catalogServicesConditionFactory, compileRe2, consulKvConditionFactory, consulKvQuery,
  decodeKvValue, healthServiceQuery, sameServiceNames, servicesConditionFactory, type ServicesSelector,
} from "../../../plugins/consul-inputs/mod.ts";
import { parseCron, toCronerPattern } from "../../../plugins/condition-schedule/mod.ts";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

describe("buildCatalogServices", () => {
  it("keeps matching names in sorted order with sorted tags", () => {
    const body = { web: ["v2", "prod"], consul: [], api: null };
    expect(buildCatalogServices(body)).toEqual({ api: [], consul: [], web: ["prod", "v2"] });
    expect(Object.keys(buildCatalogServices(body))).toEqual(["api", "consul", "web"]);
    expect(buildCatalogServices(body, (name) => compileRe2("^(web|api)$").test(name))).toEqual({ api: [], web: ["prod", "v2"] });
  });

  it("compares service name sets regardless of tags", () => {
    expect(sameServiceNames({ a: ["x"] }, { a: ["y"] })).toBe(true);
    expect(sameServiceNames({ a: [] }, { a: [], b: [] })).toBe(false);
    expect(sameServiceNames({ a: [] }, { b: [] })).toBe(false);
  });
});

describe("buildConsulKv", () => {
  it("maps a single key to its value, or to nothing when the key is missing", () => {
    expect(buildConsulKv([{ Key: "app/x", Value: b64("héllo") }], { path: "app/x", recurse: false })).toEqual({ "app/x": "héllo" });
    expect(buildConsulKv(undefined, { path: "app/x", recurse: false })).toEqual({});
    expect(buildConsulKv([{ Key: "app/x", Value: null }], { path: "app/x", recurse: false })).toEqual({ "app/x": "" });
  });

  it("maps every key under a prefix by its full path, sorted", () => {
    const body = [{ Key: "app/b", Value: b64("2") }, { Key: "app", Value: b64("0") }, { Key: "app/a", Value: b64("1") }];
    const kv = buildConsulKv(body, { path: "app", recurse: true });
    expect(kv).toEqual({ app: "0", "app/a": "1", "app/b": "2" });
    expect(Object.keys(kv)).toEqual(["app", "app/a", "app/b"]);
  });

  it("decodes base64 as UTF-8", () => {
    expect(decodeKvValue(b64("☃"))).toBe("☃");
    expect(decodeKvValue(null)).toBe("");
  });
});

describe("compileRe2", () => {
  it("matches unanchored like Go's MatchString", () => {
    expect(compileRe2("web").test("my-web-1")).toBe(true);
    expect(compileRe2("").test("anything")).toBe(true);
  });

  it("accepts RE2-only spellings", () => {
    expect(compileRe2("(?i)^WEB").test("web")).toBe(true);
    expect(compileRe2("^(?P<svc>[[:alpha:]]+)-\\d$").test("web-1")).toBe(true);
    expect(compileRe2("\\Aweb\\z").test("web")).toBe(true);
    expect(compileRe2("\\Aweb\\z").test("web\n")).toBe(false);
  });

  it("rejects invalid patterns with a coded error", () => {
    expect(() => compileRe2("(")).toThrow(expect.objectContaining({ code: "CTS_ERR_CONFIG_INVALID" }));
  });
});

// The factories read the block the kernel decoded (decodeInputBlock decodes as the kernel does):
// these are the rules their hand readers checked before, now said once by schema and `validate`.
describe("the blocks as the kernel hands them over", () => {
  const services = (block: Record<string, unknown>) => decodeInputBlock(servicesConditionFactory, "condition", block) as ServicesSelector;

  it("requires exactly one of names and regexp", () => {
    expect(() => services({})).toThrow(/needs either names or regexp/);
    expect(() => services({ names: ["a"], regexp: "a" })).toThrow(/regexp and names are both set: configure exactly one of them/);
    expect(services({ regexp: "", names: [] })).toMatchObject({ regexp: "", names: [], use_as_module_input: true });
    expect(() => services({ names: ["a", ""] })).toThrow(/names\/1: must NOT have fewer than 1 characters|names\[1\]/);
  });

  it("lets use_as_module_input win over source_includes_var", () => {
    expect(services({ names: ["a"], source_includes_var: false })).toMatchObject({ use_as_module_input: false });
    expect(services({ names: ["a"], source_includes_var: false, use_as_module_input: true })).toMatchObject({ use_as_module_input: true });
  });

  it("requires a regexp for catalog-services and a path for consul-kv", () => {
    expect(() => decodeInputBlock(catalogServicesConditionFactory, "condition", {})).toThrow(/regexp/);
    expect(decodeInputBlock(catalogServicesConditionFactory, "condition", { regexp: "", node_meta: { rack: "r1" } }))
      .toMatchObject({ node_meta: { rack: "r1" }, use_as_module_input: true });
    expect(() => decodeInputBlock(consulKvConditionFactory, "condition", { path: "" })).toThrow(/path/);
    expect(decodeInputBlock(consulKvConditionFactory, "condition", { path: "a/b", recurse: true }))
      .toMatchObject({ path: "a/b", recurse: true, use_as_module_input: true });
  });
});

describe("cron expressions", () => {
  it("reads 5, 6 (trailing year) and 7 field expressions and nicknames", () => {
    expect(toCronerPattern("*/5 * * * *")).toBe("*/5 * * * *");
    expect(toCronerPattern("0 12 * * * 2099")).toBe("0 0 12 * * * 2099");
    expect(toCronerPattern("*/10 * * * * * *")).toBe("*/10 * * * * * *");
    expect(toCronerPattern("@hourly")).toBe("@hourly");
    const daily = parseCron("@daily");
    expect(daily.nextRun()!.getMinutes()).toBe(0);
    daily.stop();
    const hourly = parseCron("30 * * * * 2099");
    expect(hourly.nextRun()!.getFullYear()).toBe(2099);
    hourly.stop();
  });

  it("rejects unreadable expressions with a coded error", () => {
    expect(() => parseCron("* * *")).toThrow(expect.objectContaining({ code: "CTS_ERR_CONFIG_INVALID" }));
    expect(() => parseCron("61 * * * *")).toThrow(/Cannot parse cron "61/);
  });
});

describe("Consul queries", () => {
  it("escapes KV path segments, drops a leading slash and sends recurse by presence", () => {
    const base = { recurse: false, datacenter: "", namespace: "" };
    expect(consulKvQuery({ ...base, path: "/app/a b" }).key).toBe("/v1/kv/app/a%20b");
    expect(consulKvQuery({ ...base, path: "app", recurse: true, datacenter: "dc2" }).key).toBe("/v1/kv/app?dc=dc2&recurse=true");
  });

  it("asks for passing instances only when no filter decides (names) and always for regexp", () => {
    const block = (fields: Record<string, unknown>) => decodeInputBlock(servicesConditionFactory, "condition", fields) as ServicesSelector;
    const names = block({ names: ["web"] });
    expect(healthServiceQuery("web", names).key).toBe("/v1/health/service/web?passing=1");
    const filtered = block({ names: ["web"], filter: "Service.Port == 80", namespace: "ns1" });
    expect(healthServiceQuery("web", filtered).params).toEqual({ filter: "Service.Port == 80", ns: "ns1" });
    const regexp = block({ regexp: "^w", filter: "Service.Port == 80" });
    expect(healthServiceQuery("w/1", regexp).path).toBe("/v1/health/service/w%2F1");
    expect(healthServiceQuery("w/1", regexp).params).toEqual({ filter: "Service.Port == 80", passing: "1" });
  });
});
