import { describe, expect, it } from "vitest";
import type { TaskEvent } from "../../../core/plugin-api/mod.ts";
import { canonicalJson, inputHash } from "../../../plugins/task-engine/src/input-hash.ts";
import { InputSlots } from "../../../plugins/task-engine/src/input-slots.ts";
import { retryDelayMs } from "../../../plugins/task-engine/src/retry.ts";
import { FollowUpRetry } from "../../../plugins/task-engine/src/follow-up-retry.ts";
import { retryPolicyOf, retryWaitMs } from "../../../plugins/task-engine/src/retry-policy.ts";
import { RunLimiter } from "../../../plugins/task-engine/src/run-limiter.ts";
import { taskStatus } from "../../../plugins/task-engine/src/task-status.ts";

const event = (success: boolean): TaskEvent => ({
  id: crypto.randomUUID(), success, start_time: "", end_time: "", task_name: "t",
  error: success ? null : { message: "x" }, config: { providers: [], services: [], source: "m" },
});

describe("taskStatus (CTS §3.2)", () => {
  it("computes unknown, successful, errored and critical from the newest events", () => {
    expect(taskStatus([])).toBe("unknown");
    expect(taskStatus([event(true), event(false), event(false)])).toBe("successful");
    expect(taskStatus([event(false), event(true)])).toBe("errored");
    expect(taskStatus([event(false), event(true), event(false)])).toBe("critical");
  });

  it("counts only the newest `limit` events", () => {
    const events = [event(false), event(true), event(true), event(false)];
    expect(taskStatus(events, 3)).toBe("errored");
    expect(taskStatus(events, 4)).toBe("critical");
  });
});

describe("input hashing", () => {
  it("ignores key order but not values", async () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 3 } })).toBe('{"a":{"c":3,"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(await inputHash({ a: 1, b: 2 })).toBe(await inputHash({ b: 2, a: 1 }));
    expect(await inputHash({ a: 1 })).not.toBe(await inputHash({ a: 2 }));
    expect(await inputHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("InputSlots", () => {
  it("defaults services to {} and merges one variable from two sources in source order", () => {
    const slots = new InputSlots();
    expect(slots.current()).toEqual({ services: {} });
    slots.publish(1, "consul_kv", { "b": "2", "a": "0" });
    slots.publish(0, "consul_kv", { "a": "1" });
    slots.publish(0, "catalog_services", { web: ["x"] });
    slots.publish(0, "catalog_services", { api: [] });
    expect(slots.current()).toEqual({ services: {}, consul_kv: { a: "0", b: "2" }, catalog_services: { api: [] } });
  });

  it("fingerprints watched-but-unpublished data with the inputs, and knows which variables arrived", async () => {
    const slots = new InputSlots();
    expect(slots.has(1, "consul_kv")).toBe(false);
    slots.publish(1, "consul_kv", { a: "1" });
    expect(slots.has(1, "consul_kv")).toBe(true);
    const inputs = slots.current();
    expect(slots.fingerprinted(inputs)).toBe(inputs);
    slots.observe(0, { "web-1": { address: "10.0.0.1" } });
    const first = await inputHash(slots.fingerprinted(inputs));
    slots.observe(0, { "web-1": { address: "10.0.0.2" } });
    expect(await inputHash(slots.fingerprinted(slots.current()))).not.toBe(first);
  });
});

describe("retryDelayMs (CTS: [1, 1.5) s then [2, 3) s)", () => {
  it("stays inside CTS's ranges", () => {
    expect(retryDelayMs(1, () => 0)).toBe(1000);
    expect(retryDelayMs(1, () => 0.999)).toBeLessThan(1500);
    expect(retryDelayMs(2, () => 0)).toBe(2000);
    expect(retryDelayMs(2, () => 0.999)).toBeLessThan(3000);
  });
});

describe("RunLimiter", () => {
  it("never runs more than max at once and serves waiters in order", async () => {
    const limiter = new RunLimiter(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const work = (n: number) => limiter.run(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(n);
      active--;
    });
    await Promise.all([1, 2, 3, 4, 5].map(work));
    expect(peak).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([1, 2]);
    expect(limiter.active).toBe(0);
  });

  it("treats 0 as no limit", async () => {
    const limiter = new RunLimiter(0);
    let active = 0;
    let peak = 0;
    await Promise.all([1, 2, 3, 4].map(() => limiter.run(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
    })));
    expect(peak).toBe(4);
  });
});

describe("the retry policy of failed runs (issue 24 item 4)", () => {
  const quiet = { name: "t", trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

  it("waits backoff doubling up to max_backoff, plus at most a tenth", () => {
    const policy = retryPolicyOf({ max_retries: 8, backoff: "30s", max_backoff: "10m" });
    expect([1, 2, 3, 5, 6, 9].map((n) => retryWaitMs(policy, n, () => 0))).toEqual([30_000, 60_000, 120_000, 480_000, 600_000, 600_000]);
    expect(retryWaitMs(policy, 1, () => 0.999)).toBe(32_997);
  });

  it("defaults to 8 retries from 30s to 10m; an unset max_backoff follows a longer backoff; a shorter one is refused", () => {
    expect(retryPolicyOf(undefined)).toEqual({ maxRetries: 8, backoffMs: 30_000, maxBackoffMs: 600_000 });
    expect(retryPolicyOf({ max_retries: 8, backoff: "1h" })).toEqual({ maxRetries: 8, backoffMs: 3_600_000, maxBackoffMs: 3_600_000 });
    expect(() => retryPolicyOf({ max_retries: 8, backoff: "1m", max_backoff: "10s" })).toThrow(/^Cannot use retry.max_backoff "10s": it is shorter than retry.backoff "1m"$/);
    expect(() => retryPolicyOf({ max_retries: 8, backoff: "0s" })).toThrow(/^Cannot use retry.backoff "0s": expected a positive duration/);
  });

  it("retries a failure until the count is spent; success and supersede start the count again", async () => {
    const runs: string[] = [];
    const retry = new FollowUpRetry({ maxRetries: 2, backoffMs: 1, maxBackoffMs: 1 }, quiet, ({ reason, previousError }) => runs.push(`${reason.detail}: ${previousError}`));
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    retry.failed("a");
    await settle();
    retry.failed("b");
    await settle();
    retry.failed("c");
    expect(retry.pending).toBe(false);
    expect(runs).toEqual(["retry 1 of 2: a", "retry 2 of 2: b"]);
    retry.failed("d");
    expect(retry.pending).toBe(true);
    retry.supersede();
    expect(retry.pending).toBe(false);
    await settle();
    expect(runs).toHaveLength(2);
    retry.failed("e");
    await settle();
    expect(runs.at(-1)).toBe("retry 1 of 2: e");
  });

  it("never retries with max_retries 0 (CTS's behaviour)", () => {
    const retry = new FollowUpRetry({ maxRetries: 0, backoffMs: 1, maxBackoffMs: 1 }, quiet, () => {});
    retry.failed("a");
    expect(retry.pending).toBe(false);
  });
});
