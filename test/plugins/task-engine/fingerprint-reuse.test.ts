import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalText } from "../../../plugins/task-engine/src/canonical-text.ts";
import { canonicalJson, inputHash } from "../../../plugins/task-engine/src/input-hash.ts";

/** A frozen instance (as services-map.ts hands out) whose key listings are counted. */
function countedInstance(id: string, counter: { walks: number }): object {
  const target = Object.freeze({
    id, name: "web", address: "10.0.0.1", port: 8080, status: "passing",
    tags: Object.freeze(["b", "a"]), meta: Object.freeze({ zone: "z1", "10": "x", "9": "y" }),
  });
  return new Proxy(target, {
    ownKeys(object) {
      counter.walks++;
      return Reflect.ownKeys(object);
    },
  });
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("run fingerprint over frozen instances (issue 16: cost per run)", () => {
  it("serialises an unchanged frozen instance once, not on every run", async () => {
    // Re-sorting and re-serialising every instance on every run cost 3–12 ms at 1,000 instances.
    const counter = { walks: 0 };
    const services = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`web-${i}`, countedInstance(`web-${i}`, counter)]));
    const first = await inputHash({ services });
    const afterFirst = counter.walks;
    expect(afterFirst).toBeGreaterThan(0);
    for (let run = 0; run < 20; run++) expect(await inputHash({ services: { ...services } })).toBe(first);
    expect(counter.walks).toBe(afterFirst);
  });

  it("keeps the stored fingerprint format: SHA-256 of the canonical JSON, so an upgrade re-runs no task", async () => {
    const counter = { walks: 0 };
    const instance = countedInstance("api-1", counter);
    const value = { services: { "api-1": instance }, observed: { 0: [1, "x"] } };
    await inputHash(value); // fills the cache
    expect(await inputHash(value)).toBe(sha256(canonicalJson(value)));
  });

  it("gives exactly canonicalJson's text for values JSON treats specially", () => {
    const date = new Date("2026-11-26T09:00:00Z");
    const values: unknown[] = [
      { b: 1, a: { d: [2, { z: 1, y: 2 }], c: 3 } },
      Object.freeze({ "10": 1, "9": 2, "01": 3, b: 4, "4294967295": 5, "4294967294": 6, a: undefined }),
      [undefined, () => 1, Symbol("s"), NaN, -0, Infinity, null, true, "é\u2028\ud800"],
      { when: date, list: Object.freeze([date, Object.freeze({ y: 1, x: [] })]), fn: () => 1 },
      Object.freeze({ nested: Object.freeze({ deeper: Object.freeze([Object.freeze({ k: "v" })]) }) }),
      {}, [], "text", 42, null,
    ];
    for (const value of values) {
      expect(canonicalText(value)).toBe(canonicalJson(value));
      expect(canonicalText(value)).toBe(canonicalJson(value)); // second time from the cache
    }
  });

  it("never reuses the text of something that can change", async () => {
    const mutable: Record<string, unknown> = { id: "a", port: 1 };
    const before = await inputHash({ services: { a: mutable } });
    mutable.port = 2;
    expect(await inputHash({ services: { a: mutable } })).not.toBe(before);

    const meta: Record<string, string> = { zone: "z1" };
    const frozenWithMutableChild = Object.freeze({ id: "b", meta });
    const withChild = await inputHash(frozenWithMutableChild);
    meta.zone = "z2";
    expect(await inputHash(frozenWithMutableChild)).not.toBe(withChild);

    let port = 1;
    const withGetter = Object.freeze(Object.defineProperty({ id: "c" }, "port", { enumerable: true, get: () => port }));
    const gotten = await inputHash(withGetter);
    port = 2;
    expect(await inputHash(withGetter)).not.toBe(gotten);
  });
});
