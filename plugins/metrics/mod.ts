/**
 * @module The metrics plugin (beyond CTS): `GET /metrics` in Prometheus text format 0.0.4,
 * computed from the services at scrape time. Answered by every HA member, leader or not.
 */
import {
  consulClientToken, daemonEventsToken, definePlugin, httpRouterToken, leadershipToken, metricsSourceRegistryToken, queryWatcherToken,
  runtimeVersionToken, taskManagerToken,
} from "../../core/plugin-api/mod.ts";
import { collectMetrics, type MetricsSources } from "./src/collect.ts";
import { EXPOSITION_CONTENT_TYPE, renderExposition } from "./src/exposition.ts";
import { RunCounter } from "./src/run-counter.ts";
import { RunDurations } from "./src/run-durations.ts";
import { SkippedTriggers } from "./src/skipped-triggers.ts";

export { collectMetrics } from "./src/collect.ts";
export type { MetricsSources } from "./src/collect.ts";
export { escapeLabelValue, EXPOSITION_CONTENT_TYPE, renderExposition } from "./src/exposition.ts";
export type { MetricFamily, MetricType, Sample } from "./src/exposition.ts";
export { RunCounter } from "./src/run-counter.ts";
export { RUN_DURATION_BUCKETS, RunDurations } from "./src/run-durations.ts";
export { SkippedTriggers } from "./src/skipped-triggers.ts";

export const METRICS_PATH = "/metrics";

export default definePlugin({
  id: "metrics",
  kind: "api",
  description: "Prometheus metrics at GET /metrics (tasks, runs, leadership, Consul connection, watches)",
  deps: {
    router: httpRouterToken,
    tasks: taskManagerToken,
    leadership: leadershipToken,
    consul: consulClientToken,
    watcher: queryWatcherToken,
    version: runtimeVersionToken,
    daemonEvents: daemonEventsToken,
    contributed: metricsSourceRegistryToken,
  },
  init({ router, tasks, leadership, consul, watcher, version, daemonEvents, contributed }, ctx) {
    let runs: RunCounter | undefined;
    if (tasks.onEvent) {
      const counter = (runs = new RunCounter());
      const unsubscribe = tasks.onEvent((event) => counter.record(event));
      ctx.lifecycle.onStop(unsubscribe);
    }
    // Run durations and skipped triggers come from the engine's run records on the event bus.
    const durations = new RunDurations();
    const skipped = new SkippedTriggers();
    ctx.lifecycle.onStop(daemonEvents.subscribe((event) => {
      if (event.type !== "run.ended") return;
      durations.record(event.run);
      skipped.record(event.run);
    }));
    const sources: MetricsSources = {
      version, tasks, leadership, consul, watcher, ...(runs ? { runs } : {}), durations, skipped, contributed,
    };
    router.mount(METRICS_PATH, (request) => {
      if (new URL(request.url).pathname !== METRICS_PATH) return new Response("not found\n", { status: 404 });
      if (request.method !== "GET" && request.method !== "HEAD") {
        return new Response("method not allowed\n", { status: 405, headers: { allow: "GET, HEAD" } });
      }
      const body = renderExposition(collectMetrics(sources));
      return new Response(request.method === "HEAD" ? null : body, { headers: { "content-type": EXPOSITION_CONTENT_TYPE } });
    });
  },
});
