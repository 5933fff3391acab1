/**
 * The specialised `services` entry writer gives exactly the generic HCL encoder's bytes (which the
 * golden files and the Terraform round-trip pin), for every combination of empty and filled maps,
 * awkward strings and keys, and instances outside the usual shape.
 */
import { describe, expect, it } from "vitest";
import type { ServiceInstance } from "../../../core/plugin-api/mod.ts";
import { HclByteWriter } from "../../../plugins/driver-terraform/src/hcl-byte-writer.ts";
import { encodeHclValue } from "../../../plugins/driver-terraform/src/hcl-value.ts";
import { renderServiceInstance, serviceObject, writeServiceEntry } from "../../../plugins/driver-terraform/src/render-service-instance.ts";
import { randomString, randomValue, seededRandom } from "./random-values.ts";

const generic = (instance: ServiceInstance) => encodeHclValue(serviceObject(instance), 2);

function instance(overrides: Partial<Record<keyof ServiceInstance, unknown>> = {}): ServiceInstance {
  return {
    id: "web-1", name: "web", kind: "", address: "10.0.0.1", port: 8080, meta: {}, tags: [], namespace: "",
    status: "passing", node: "node1", node_id: "1111", node_address: "10.0.0.1", node_datacenter: "dc1",
    node_tagged_addresses: {}, node_meta: {}, cts_user_defined_meta: {},
    ...overrides,
  } as ServiceInstance;
}

describe("renderServiceInstance", () => {
  it("matches the generic encoder for each combination of empty and filled maps", () => {
    const maps = ["meta", "node_tagged_addresses", "node_meta", "cts_user_defined_meta"] as const;
    for (let mask = 0; mask < 16; mask++) {
      const overrides: Record<string, unknown> = { tags: ["b", "a"] };
      maps.forEach((name, i) => {
        if (mask & (1 << i)) overrides[name] = { k: "v", "long-key_name": "x", "needs quote": "y", true: "z" };
      });
      const subject = instance(overrides);
      expect(renderServiceInstance(subject), `mask ${mask}`).toBe(generic(subject));
    }
  });

  it("matches the generic encoder on random awkward strings, keys and ports", () => {
    const random = seededRandom(1616);
    const map = () => {
      const out: Record<string, string> = {};
      const size = Math.floor(random() * 4);
      for (let i = 0; i < size; i++) out[randomString(random) || "k"] = randomString(random);
      return out;
    };
    for (let n = 0; n < 500; n++) {
      const subject = instance({
        id: randomString(random), name: randomString(random), kind: randomString(random), address: randomString(random),
        port: Math.floor(random() * 70000) - 100, meta: map(), tags: [randomString(random), randomString(random)],
        namespace: randomString(random), status: randomString(random), node: randomString(random),
        node_id: randomString(random), node_address: randomString(random), node_datacenter: randomString(random),
        node_tagged_addresses: map(), node_meta: map(), cts_user_defined_meta: map(),
      });
      expect(renderServiceInstance(subject)).toBe(generic(subject));
    }
  });

  it("falls back to the generic encoder for values outside the usual shape", () => {
    const random = seededRandom(16);
    const odd: Partial<Record<keyof ServiceInstance, unknown>>[] = [
      { port: "80" }, { id: 7 }, { tags: ["a", 1, null] }, { tags: [["nested"], { a: "b" }] }, { meta: { n: 1 } },
      { meta: { nested: { a: "b" } } }, { node_meta: null }, { status: undefined }, { node_tagged_addresses: ["x"] },
      { port: -0 },
    ];
    for (let n = 0; n < 200; n++) odd.push({ meta: randomValue(random, 3), tags: randomValue(random, 2) });
    for (const overrides of odd) {
      const subject = instance(overrides);
      let expected: string | Error;
      try {
        expected = generic(subject);
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) expect(() => renderServiceInstance(subject)).toThrow(expected.message);
      else expect(renderServiceInstance(subject), JSON.stringify(overrides)).toBe(expected);
    }
  });

  it("reuses the text of a deeply frozen instance, and never caches one that can still change", () => {
    const frozen = Object.freeze(instance({
      meta: Object.freeze({ v: "1" }), tags: Object.freeze(["a"]), node_tagged_addresses: Object.freeze({}),
      node_meta: Object.freeze({}), cts_user_defined_meta: Object.freeze({}),
    }));
    const entry = (key: string) => {
      const writer = new HclByteWriter();
      writer.text("x");
      writeServiceEntry(writer, key, frozen);
      return writer.finish();
    };
    expect(entry("web-1.node1.dc1")).toBe(`x\n  "web-1.node1.dc1" = ${generic(frozen)},`);
    // Again: the kept bytes; under another key: not the kept bytes.
    expect(entry("web-1.node1.dc1")).toBe(`x\n  "web-1.node1.dc1" = ${generic(frozen)},`);
    expect(entry("other")).toBe(`x\n  "other" = ${generic(frozen)},`);
    expect(entry("web-1.node1.dc1")).toBe(`x\n  "web-1.node1.dc1" = ${generic(frozen)},`);
    // Frozen on the outside only: its meta may still change, so each render reads it afresh.
    const meta: Record<string, string> = { v: "1" };
    const shallow = Object.freeze(instance({ meta }));
    expect(renderServiceInstance(shallow)).toBe(generic(shallow));
    meta.v = "2";
    expect(renderServiceInstance(shallow)).toContain('"2"');
  });
});
