import { describe, expect, it } from "vitest";
import { RunQueue, type RunRequest } from "../../../plugins/task-engine/src/run-queue.ts";

/** A run executor whose runs finish only when the test releases them. */
function gatedExecutor() {
  const started: RunRequest[] = [];
  const gates: (() => void)[] = [];
  let data = 0;
  const seen: number[] = [];
  const execute = async (request: RunRequest) => {
    started.push(request);
    const snapshot = data;
    seen.push(snapshot);
    await new Promise<void>((resolve) => gates.push(resolve));
    return snapshot;
  };
  const releaseNext = async () => {
    while (gates.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    gates.shift()!();
  };
  return { execute, started, seen, releaseNext, setData: (value: number) => (data = value) };
}

const dep = (detail: string): RunRequest => ({ reason: { kind: "dependency", detail }, force: false, retries: true });

describe("RunQueue", () => {
  it("serialises runs and coalesces requests made during a run into one run with the newest data", async () => {
    const gated = gatedExecutor();
    const queue = new RunQueue(gated.execute);
    const first = queue.request(dep("c1"));
    await Promise.resolve();
    expect(queue.running).toBe(true);
    const later: Promise<number | undefined>[] = [];
    for (let i = 2; i <= 10; i++) {
      gated.setData(i);
      later.push(queue.request(dep(`c${i}`)));
    }
    await gated.releaseNext();
    expect(await first).toBe(0);
    await gated.releaseNext();
    const results = await Promise.all(later);
    expect(results).toEqual(Array(9).fill(10));
    expect(gated.started.map((r) => r.reason.detail)).toEqual(["c1", "c10"]);
    await queue.whenIdle();
    expect(queue.running).toBe(false);
    expect(queue.queued).toBe(false);
  });

  it("keeps a forced request's reason and force when newer unforced ones coalesce into it", async () => {
    const gated = gatedExecutor();
    const queue = new RunQueue(gated.execute);
    void queue.request(dep("first"));
    await Promise.resolve();
    void queue.request({ reason: { kind: "api" }, force: true, retries: false });
    void queue.request(dep("after"));
    await gated.releaseNext();
    await gated.releaseNext();
    await queue.whenIdle();
    expect(gated.started[1]).toEqual({ reason: { kind: "api" }, force: true, retries: true });
  });

  it("drop forgets the queued run but lets the running one finish", async () => {
    const gated = gatedExecutor();
    const queue = new RunQueue(gated.execute);
    const running = queue.request(dep("a"));
    await Promise.resolve();
    const queued = queue.request(dep("b"));
    queue.drop();
    expect(await queued).toBeUndefined();
    await gated.releaseNext();
    expect(await running).toBe(0);
    await queue.whenIdle();
    expect(gated.started.length).toBe(1);
  });

  it("keeps working after an executor throws", async () => {
    let calls = 0;
    const queue = new RunQueue(async () => {
      calls++;
      if (calls === 1) throw new Error("boom");
      return calls;
    });
    expect(await queue.request(dep("x"))).toBeUndefined();
    expect(await queue.request(dep("y"))).toBe(2);
  });
});
