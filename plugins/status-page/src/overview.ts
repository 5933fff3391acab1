/**
 * @module `GET /ui/overview.json`: what the status page shows at a glance, in one answer: this
 * instance and who leads, whether high availability is configured, the Consul connection, and each
 * task with its status, last run (with its run record's id when the engine knows it), the run in
 * progress, the next scheduled run and, for a task drift detection watches, its drift. `?task=<name>`
 * answers for that task only. A follower
 * answers without tasks (they run on the leader; its copy may be stale), as its API redirects task
 * reads to the leader. Everything comes from the engine's memory: no store is read.
 */
import type {
  ConsulConnectionState, DriftState, Leadership, TaskManager, TaskState,
} from "../../../core/plugin-api/mod.ts";
import { nextRunOf } from "./next-run.ts";

export interface OverviewSources {
  readonly tasks: TaskManager;
  readonly leadership: Leadership;
  readonly consulState: () => ConsulConnectionState;
  readonly version: string;
  readonly highAvailability: boolean;
}

export interface TaskOverview {
  readonly name: string;
  readonly description: string;
  readonly enabled: boolean;
  readonly status: string;
  readonly running: boolean;
  readonly deleting: boolean;
  readonly condition: string;
  readonly cron?: string;
  readonly next_run?: string;
  readonly last_run?: {
    readonly success: boolean;
    readonly start_time: string;
    readonly end_time: string;
    readonly error?: string;
    readonly trigger?: string;
    readonly skipped?: boolean;
    /** The run record of this run, when the engine has it (`/ui/tasks/<name>/runs/<id>`). */
    readonly run_id?: string;
  };
  /** The run in progress. */
  readonly current_run?: { readonly id: string; readonly kind: string; readonly started_at: string };
  /** Drift detection's view, for a task it watches (as `/v1/status/tasks` shows it). */
  readonly drift?: DriftState;
}

/** The drift state of a task drift detection watches (checks due, or a check ended); undefined otherwise. */
function driftOf(state: TaskState): DriftState | undefined {
  const drift = state.drift;
  return drift && (drift.next_check !== undefined || drift.status !== "unknown") ? drift : undefined;
}

function lastRunOf(state: TaskState): TaskOverview["last_run"] | undefined {
  const last = state.events[0];
  if (!last) return undefined;
  const record = state.lastRun?.event_id === last.id ? state.lastRun : undefined;
  return {
    success: last.success,
    start_time: last.start_time,
    end_time: last.end_time,
    ...(last.error ? { error: last.error.message } : {}),
    ...(last.trigger ? { trigger: last.trigger.detail ? `${last.trigger.kind}: ${last.trigger.detail}` : last.trigger.kind } : {}),
    ...(last.skipped ? { skipped: true } : {}),
    ...(record ? { run_id: record.id } : {}),
  };
}

function taskOverview(state: TaskState, now: Date): TaskOverview {
  const { config } = state;
  const condition = config.condition as { readonly type: string; readonly cron?: unknown };
  const cron = condition.type === "schedule" && typeof condition.cron === "string" ? condition.cron : undefined;
  const next = cron !== undefined && config.enabled ? nextRunOf(cron, now) : undefined;
  const last = lastRunOf(state);
  const current = state.currentRun;
  const drift = driftOf(state);
  return {
    name: config.name,
    description: config.description,
    enabled: config.enabled,
    status: state.status,
    running: state.running,
    deleting: state.deleting,
    condition: condition.type,
    ...(cron !== undefined ? { cron } : {}),
    ...(next ? { next_run: next.toISOString() } : {}),
    ...(last ? { last_run: last } : {}),
    ...(current ? { current_run: { id: current.id, kind: current.kind ?? "apply", started_at: current.started_at } } : {}),
    ...(drift ? { drift } : {}),
  };
}

/** The overview; `task` limits it to that task (none when it does not exist). */
export function buildOverview(sources: OverviewSources, now = new Date(), task?: string): Record<string, unknown> {
  const { leadership } = sources;
  const consul = sources.consulState();
  const isLeader = leadership.isLeader();
  const leader = leadership.leader();
  const staleSince = isLeader ? undefined : leadership.leaderStaleSince?.();
  const states = task === undefined ? sources.tasks.list() : [sources.tasks.get(task)].filter((state) => state !== undefined);
  return {
    instance_id: leadership.instanceId,
    version: sources.version,
    is_leader: isLeader,
    high_availability: sources.highAvailability,
    ...(leader ? { leader } : {}),
    // The leader named is the one last confirmed before Consul became unreachable at this time.
    ...(staleSince !== undefined ? { leader_stale_since: new Date(staleSince).toISOString() } : {}),
    consul: {
      healthy: consul.healthy,
      since: new Date(consul.since).toISOString(),
      failures: consul.failures,
      ...(consul.healthy || consul.lastError === undefined ? {} : { last_error: consul.lastError }),
    },
    ...(isLeader ? { tasks: states.map((state) => taskOverview(state, now)) } : {}),
    generated_at: now.toISOString(),
  };
}
