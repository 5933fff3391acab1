/** @module Delivery results as metrics families (`metricsSourceRegistryToken`), counted since start. */
import type { MetricFamily, MetricsSource } from "../../../core/plugin-api/mod.ts";

export type DeliveryResult = "delivered" | "failed" | "dropped";

export class DeliveryMetrics implements MetricsSource {
  readonly name = "notifier-webhook";
  /** `task\0result` → count. */
  readonly #results = new Map<string, number>();
  readonly #attempts = { ok: 0, error: 0 };
  #queued: () => number = () => 0;

  /** Where the queue length is read from at scrape time. */
  watchQueue(length: () => number): void {
    this.#queued = length;
  }

  result(task: string, result: DeliveryResult): void {
    const key = `${task}\u0000${result}`;
    this.#results.set(key, (this.#results.get(key) ?? 0) + 1);
  }

  attempt(ok: boolean): void {
    if (ok) this.#attempts.ok++;
    else this.#attempts.error++;
  }

  collect(): readonly MetricFamily[] {
    const results = [...this.#results].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, value]) => {
      const [task, result] = key.split("\u0000") as [string, string];
      return { labels: { task, result }, value };
    });
    return [
      {
        name: "cts_notifications_total", type: "counter", samples: results,
        help: "Run notifications by task and result: delivered, failed (retries exhausted or refused), dropped (queue full).",
      },
      {
        name: "cts_notification_attempts_total", type: "counter",
        help: "Webhook requests by result: ok (2xx) or error (other status, timeout, no connection).",
        samples: [{ labels: { result: "ok" }, value: this.#attempts.ok }, { labels: { result: "error" }, value: this.#attempts.error }],
      },
      { name: "cts_notification_queue_length", type: "gauge", help: "Notifications waiting to be sent.", samples: [{ value: this.#queued() }] },
    ];
  }
}
