/**
 * @module What the shared cluster's ownership reads: the `members/` and `owners/` keys, each followed
 * by its own blocking query (recursive: their holding sessions are the point), and on each change the
 * task names under `tasks/` (`?keys`, not blocking). Run records, events, task state and the leader
 * key are never read, so a run on any instance wakes no member.
 *
 * `tasks/` is not watched: each run writes its task's state there twice, which would wake every
 * member (Consul indexes a prefix by its newest write). The task names change only with a change
 * under `members/` or `owners/`: configured tasks are stored before their instance takes its member
 * key (shared-cluster.ts `seed`), `POST /v1/tasks` is refused in this mode, and deleting a task
 * deletes its `owners/` key too (consul-task-store.ts). Tasks stored any other way (by hand, by a
 * `-once` run, `-reset-storage` with other tasks) are found by a re-read every minute.
 */
import { consulQuery, errorMessage, sleep, type ConsulClient, type Logger } from "../../../core/plugin-api/mod.ts";
import { type Entry, toEntry } from "./cluster-entries.ts";
import { RETRY_MS } from "./instance-session.ts";
import type { KvLayout } from "./kv-layout.ts";

/** How often the task names are re-read without a change under `members/` or `owners/`. */
export const TASK_NAMES_REFRESH_MS = 60_000;

export interface OwnershipSnapshot {
  /** `members/<id>` entries, held or not. */
  readonly members: readonly Entry[];
  /** `owners/<task>` entries, held or not. */
  readonly owners: readonly Entry[];
  /** The stored task names, read after the change. */
  readonly tasks: ReadonlySet<string>;
}

/**
 * Follows members and owners until `signal` aborts or `reconcile` answers false (this instance is no
 * longer a member). `reconcile` first runs once both were read, then after each change, one
 * call at a time: changes that arrive during a call are folded into the next one.
 */
export async function followOwnership(
  consul: ConsulClient,
  layout: KvLayout,
  logger: Logger,
  signal: AbortSignal,
  reconcile: (snapshot: OwnershipSnapshot) => Promise<boolean>,
  refreshMs = TASK_NAMES_REFRESH_MS,
): Promise<void> {
  const done = new AbortController();
  const onAbort = () => done.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  let members: Entry[] | undefined;
  let owners: Entry[] | undefined;
  let dirty = false;
  let draining: Promise<void> | undefined;

  const drain = async (): Promise<void> => {
    // Yield first: `draining` is assigned before a pass that has nothing to do clears it again.
    await Promise.resolve();
    while (dirty && !done.signal.aborted && members && owners) {
      dirty = false;
      try {
        const tasks = await taskNames(consul, layout, done.signal);
        if (done.signal.aborted) break;
        if (!(await reconcile({ members, owners, tasks }))) done.abort();
      } catch (error) {
        if (done.signal.aborted) break;
        // Retried, never a reason to let go (see shared-cluster.ts).
        logger.warn("cannot reconcile the shared cluster's task owners; retrying", { error: errorMessage(error) });
        dirty = true;
        await sleep(RETRY_MS, done.signal);
      }
    }
    draining = undefined;
  };
  const kick = (): void => {
    dirty = true;
    draining ??= drain();
  };
  const onError = (error: Error) => logger.warn("cannot read the shared cluster's state; retrying", { error: errorMessage(error) });
  const entries = (data: unknown) => ((data as Record<string, unknown>[] | undefined) ?? []).map(toEntry);

  const refresh = setInterval(kick, refreshMs);
  try {
    await Promise.all([
      consul.watch(consulQuery(`/v1/kv/${layout.membersPrefix}`, { recurse: "true" }), (result) => {
        members = entries(result.data);
        kick();
      }, done.signal, onError),
      consul.watch(consulQuery(`/v1/kv/${layout.ownersPrefix}`, { recurse: "true" }), (result) => {
        owners = entries(result.data);
        kick();
      }, done.signal, onError),
    ]);
    await draining;
  } finally {
    clearInterval(refresh);
    signal.removeEventListener("abort", onAbort);
    done.abort();
  }
}

/** The stored task names: one keys-only read (never a task's config or state). */
async function taskNames(consul: ConsulClient, layout: KvLayout, signal: AbortSignal): Promise<ReadonlySet<string>> {
  const result = await consul.query(consulQuery(`/v1/kv/${layout.tasksPrefix}`, { keys: "true", separator: "/" }), { signal, retry: false });
  return new Set(((result.data as string[] | undefined) ?? [])
    .map((key) => key.slice(layout.tasksPrefix.length)).filter((name) => name !== "" && !name.includes("/")));
}
