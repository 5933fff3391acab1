/**
 * @module A bounded queue per webhook URL, drained by one worker each. `push` only appends and
 * returns, so a run never waits for a receiver; a slow receiver holds up its own URL's queue and no
 * other. When a queue is full the oldest waiting notification is dropped (the newest says most
 * about a task now) and counted.
 */
import type { Logger } from "../../../core/plugin-api/mod.ts";
import type { DeliveryMetrics } from "./delivery-metrics.ts";
import type { Delivery } from "./webhook-sender.ts";

interface Lane {
  readonly waiting: Delivery[];
  busy: boolean;
}

export class DeliveryQueue {
  readonly #lanes = new Map<string, Lane>();
  readonly #capacity: number;
  readonly #send: (delivery: Delivery) => Promise<boolean>;
  readonly #metrics: DeliveryMetrics;
  readonly #logger: Logger;
  #idle: (() => void)[] = [];

  constructor(capacity: number, send: (delivery: Delivery) => Promise<boolean>, metrics: DeliveryMetrics, logger: Logger) {
    this.#capacity = capacity;
    this.#send = send;
    this.#metrics = metrics;
    this.#logger = logger;
    metrics.watchQueue(() => this.length);
  }

  /** Waiting notifications, in flight ones excluded. */
  get length(): number {
    let total = 0;
    for (const lane of this.#lanes.values()) total += lane.waiting.length;
    return total;
  }

  push(delivery: Delivery): void {
    const key = delivery.destination.url;
    let lane = this.#lanes.get(key);
    if (!lane) this.#lanes.set(key, lane = { waiting: [], busy: false });
    if (lane.waiting.length >= this.#capacity) {
      const dropped = lane.waiting.shift()!;
      this.#metrics.result(dropped.task, "dropped");
      this.#logger.warn("notification queue full, dropped the oldest", { task: dropped.task, run_id: dropped.runId });
    }
    lane.waiting.push(delivery);
    if (!lane.busy) void this.#drain(lane);
  }

  async #drain(lane: Lane): Promise<void> {
    lane.busy = true;
    for (let next = lane.waiting.shift(); next !== undefined; next = lane.waiting.shift()) {
      const delivered = await this.#send(next).catch(() => false);
      this.#metrics.result(next.task, delivered ? "delivered" : "failed");
    }
    lane.busy = false;
    if ([...this.#lanes.values()].every((other) => !other.busy)) {
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  /** Resolves once nothing waits or is in flight. */
  idle(): Promise<void> {
    if ([...this.#lanes.values()].every((lane) => !lane.busy)) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
