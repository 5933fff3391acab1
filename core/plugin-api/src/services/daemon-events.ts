/**
 * @module The daemon's live events: what `GET /v1/events` streams and the status page shows.
 * The kernel provides one in-process bus (`daemonEventsToken`); plugins publish what they see
 * (the engine: runs and task states; HA: leadership; the Consul client: its connection), and
 * readers subscribe or resume after the last id they saw.
 */
import type { RunPhase, RunRecord } from "./run-history.ts";
import type { DriftState, TaskStatus } from "./task-manager.ts";
import type { LeaderInfo } from "./leadership.ts";

export type DaemonEvent =
  | { readonly type: "task.status"; readonly task: string; readonly status: TaskStatus; readonly enabled: boolean }
  | { readonly type: "task.created" | "task.deleted"; readonly task: string }
  | { readonly type: "run.started" | "run.ended"; readonly run: RunRecord }
  /** A drift check ended with a different finding than the one before. */
  | { readonly type: "task.drift"; readonly task: string; readonly drift: DriftState }
  /**
   * Output of a run in progress, whole lines, masked. `offset` is the UTF-8
   * bytes of that phase's output before `text`, so a reader that loaded the run record (whose log
   * has `bytes`) appends exactly what it lacks. Live only: never replayed to a resuming reader.
   */
  | {
    readonly type: "run.output";
    readonly task: string;
    readonly run_id: string;
    readonly phase: RunPhase;
    readonly offset: number;
    readonly text: string;
  }
  | { readonly type: "leadership"; readonly instance_id: string; readonly is_leader: boolean; readonly leader?: LeaderInfo }
  | { readonly type: "consul.connection"; readonly state: "lost" | "restored"; readonly error?: string };

/** An event as delivered: numbered in publication order (ids only grow while the process runs). */
export type NumberedEvent = DaemonEvent & { readonly id: number; readonly time: string };

export interface DaemonEvents {
  publish(event: DaemonEvent): void;
  /** Calls `listener` for every event published from now on. Returns unsubscribe. */
  subscribe(listener: (event: NumberedEvent) => void): () => void;
  /**
   * The retained events after `id`, oldest first; undefined when some of them are no longer
   * retained (the caller must then resynchronise from the API's current state). `run.output`
   * events are never retained (a reader re-reads the run), and their absence is not a gap.
   */
  since(id: number): readonly NumberedEvent[] | undefined;
}
