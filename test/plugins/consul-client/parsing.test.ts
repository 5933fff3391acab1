/** The client's pure helpers: address forms, Go durations, backoff bounds, KV decoding, index parsing. */
import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../../plugins/consul-client/src/backoff.ts";
import { parseConsulIndex } from "../../../plugins/consul-client/src/blocking-queries.ts";
import { parseConsulAddress } from "../../../plugins/consul-client/src/consul-address.ts";
import { durationMs } from "../../../plugins/consul-client/src/go-duration.ts";
import { encodeKeyPath, parseKvPairs } from "../../../plugins/consul-client/src/kv-pair.ts";

describe("consul client helpers", () => {
  it("accepts CTS's address forms", () => {
    expect(parseConsulAddress("localhost:8500", false)).toEqual({ baseUrl: "http://localhost:8500", secure: false });
    expect(parseConsulAddress("consul.service:8501", true)).toEqual({ baseUrl: "https://consul.service:8501", secure: true });
    expect(parseConsulAddress("10.0.0.1", false).baseUrl).toBe("http://10.0.0.1:8500");
    expect(parseConsulAddress("https://consul.example.com", false)).toEqual({
      baseUrl: "https://consul.example.com:443", secure: true,
    });
    expect(parseConsulAddress("http://proxy:8080/consul/", false)).toEqual({
      baseUrl: "http://proxy:8080/consul", secure: false,
    });
    // CTS (Consul's Go client): TLS that was asked for is never dropped for an http:// address.
    expect(parseConsulAddress("http://proxy:8080/consul/", true)).toEqual({
      baseUrl: "https://proxy:8080/consul", secure: true,
    });
    expect(parseConsulAddress("[::1]:8500", false).baseUrl).toBe("http://[::1]:8500");
    expect(() => parseConsulAddress("ftp://x", false)).toThrow(/^Cannot use Consul address "ftp:\/\/x": scheme/);
  });

  it("parses Go durations", () => {
    expect(durationMs("30s")).toBe(30_000);
    expect(durationMs("1h30m")).toBe(5_400_000);
    expect(durationMs("1.5s")).toBe(1500);
    expect(durationMs("500ms")).toBe(500);
    expect(durationMs("0")).toBe(0);
    expect(durationMs(250)).toBe(250);
    expect(durationMs("10")).toBeUndefined();
    expect(durationMs("5 m")).toBeUndefined();
    expect(durationMs(undefined)).toBeUndefined();
  });

  it("keeps backoff within [ceiling/2, ceiling] and capped", () => {
    const policy = { baseMs: 250, maxMs: 15_000 };
    expect(backoffDelay(0, policy, () => 0)).toBe(125);
    expect(backoffDelay(0, policy, () => 1)).toBe(250);
    expect(backoffDelay(3, policy, () => 1)).toBe(2000);
    expect(backoffDelay(50, policy, () => 0)).toBe(7500);
    expect(backoffDelay(50, policy, () => 1)).toBe(15_000);
  });

  it("decodes KV entries with exact uint64 flags and UTF-8 values", () => {
    const body = '[{"LockIndex":1,"Key":"a\\"Flags\\":7","Flags":18446744073709551615,"Value":"w6k=",' +
      '"Session":"s-1","CreateIndex":3,"ModifyIndex":4},{"LockIndex":0,"Key":"b","Flags":0,"Value":null,' +
      '"CreateIndex":5,"ModifyIndex":5}]';
    expect(parseKvPairs(body)).toEqual([
      { key: 'a"Flags":7', value: "é", flags: 18446744073709551615n, createIndex: 3, modifyIndex: 4, lockIndex: 1, session: "s-1" },
      { key: "b", value: "", flags: 0n, createIndex: 5, modifyIndex: 5, lockIndex: 0 },
    ]);
    expect(parseKvPairs("")).toEqual([]);
    expect(encodeKeyPath("a/b c/{d}?#%")).toBe("a/b%20c/%7Bd%7D%3F%23%25");
  });

  it("reads X-Consul-Index defensively", () => {
    expect(parseConsulIndex("42")).toBe(42);
    expect(parseConsulIndex(" 7 ")).toBe(7);
    expect(parseConsulIndex(undefined)).toBe(0);
    expect(parseConsulIndex("-3")).toBe(0);
    expect(parseConsulIndex("abc")).toBe(0);
    expect(parseConsulIndex("1e5")).toBe(0);
  });
});
