/**
 * @module Reads the services at scrape time and turns them into metric families; nothing is
 * sampled in the background, so a scrape always shows the current state.
 */
import type {
  ConsulClient, Leadership, MetricsSource, QueryWatcher, Registry, TaskEvent, TaskManager, TaskStatus,
} from "../../../core/plugin-api/mod.ts";
import type { MetricFamily, Sample } from "./exposition.ts";
import type { RunCounter } from "./run-counter.ts";
import type { RunDurations } from "./run-durations.ts";
import type { SkippedTriggers } from "./skipped-triggers.ts";

export interface MetricsSources {
  readonly version: string;
  readonly tasks: TaskManager;
  readonly leadership: Leadership;
  readonly consul: ConsulClient;
  readonly watcher: QueryWatcher;
  /** Absent when the TaskManager cannot report events as they happen. */
  readonly runs?: RunCounter;
  readonly durations?: RunDurations;
  readonly skipped?: SkippedTriggers;
  /** Other plugins' metrics (`metricsSourceRegistryToken`), appended in registration order. */
  readonly contributed?: Registry<MetricsSource>;
}

const STATUSES: readonly TaskStatus[] = ["successful", "errored", "critical", "unknown"];

const bit = (value: boolean): number => (value ? 1 : 0);

function gauge(name: string, help: string, samples: readonly Sample[]): MetricFamily {
  return { name, help, type: "gauge", samples };
}

function epochSeconds(rfc3339: string): number {
  return Date.parse(rfc3339) / 1000;
}

/** A contributed source's families; one that throws costs its own families, never the scrape. */
function contributedFamilies(source: MetricsSource): readonly MetricFamily[] {
  try {
    return source.collect();
  } catch {
    return [];
  }
}

export function collectMetrics(sources: MetricsSources): MetricFamily[] {
  const states = sources.tasks.list().sort((a, b) => a.config.name.localeCompare(b.config.name));
  const connection = sources.consul.connectionState();
  const perTask = (pick: (events: readonly TaskEvent[], running: boolean) => number | undefined) =>
    states.flatMap((state): Sample[] => {
      const value = pick(state.events, state.running);
      return value === undefined ? [] : [{ labels: { task: state.config.name }, value }];
    });

  const families: MetricFamily[] = [
    gauge("cts_build_info", "cts-runtime build information; the value is always 1.", [{ labels: { version: sources.version }, value: 1 }]),
    gauge("cts_leader", "1 when this instance is the leader and runs tasks.", [{ value: bit(sources.leadership.isLeader()) }]),
    gauge("cts_consul_connection_healthy", "1 when the last Consul request succeeded.", [{ value: bit(connection.healthy) }]),
    gauge("cts_consul_connection_failures", "Consecutive failed Consul requests of the current outage.", [{ value: connection.failures }]),
    gauge("cts_tasks", "Tasks by status.", STATUSES.map((status) => ({
      labels: { status }, value: states.filter((state) => state.status === status).length,
    }))),
    gauge("cts_tasks_enabled", "Tasks by enabled state.", [true, false].map((enabled) => ({
      labels: { enabled: String(enabled) }, value: states.filter((state) => state.config.enabled === enabled).length,
    }))),
    gauge("cts_task_running", "1 while the task runs.", perTask((_events, running) => bit(running))),
    gauge("cts_task_last_run_success", "1 when the task's newest run succeeded.", perTask(([newest]) => newest && bit(newest.success))),
    gauge("cts_task_last_run_timestamp_seconds", "When the task's newest run ended, in Unix seconds.",
      perTask(([newest]) => newest && epochSeconds(newest.end_time))),
    gauge("cts_task_last_run_duration_seconds", "How long the task's newest run took.",
      // Subtract milliseconds, then scale: seconds first would print float noise (0.09500002861).
      perTask(([newest]) => newest && (Date.parse(newest.end_time) - Date.parse(newest.start_time)) / 1000)),
  ];
  const watches = sources.watcher.stats?.();
  if (watches) {
    families.push(
      gauge("cts_watches_open", "Blocking Consul queries open (one per distinct query).", [{ value: watches.open }]),
      gauge("cts_watch_subscribers", "Subscriptions to the open blocking queries.", [{ value: watches.subscribers }]),
    );
  }
  if (sources.runs) {
    families.push({
      name: "cts_task_runs_total",
      help: "Task runs since this process started, by result (success, error, skipped).",
      type: "counter",
      samples: sources.runs.entries().map(({ task, result, count }) => ({ labels: { task, result }, value: count })),
    });
  }
  if (sources.durations) families.push(sources.durations.family());
  if (sources.skipped) families.push(sources.skipped.family());
  for (const name of sources.contributed?.names() ?? []) families.push(...contributedFamilies(sources.contributed!.get(name)!));
  return families;
}
