/**
 * @module What the shared cluster's ownership reads, each part followed by its own blocking query:
 * the `members/` and `owners/` keys (recursive: their holding sessions are the point) and the task
 * names under `tasks/` (`?keys`: a task's stored config and state are never sent). Run records,
 * events and the leader key are not watched, so a run on any instance wakes no member's ownership;
 * a task's state write still moves the `tasks/` index (Consul indexes a prefix by its newest write),
 * but that wake returns names only and reconciles nothing when the names did not change.
 */
import { consulQuery, errorMessage, sleep, type ConsulClient, type Logger } from "../../../core/plugin-api/mod.ts";
import { type Entry, toEntry } from "./cluster-entries.ts";
import { RETRY_MS } from "./instance-session.ts";
import type { KvLayout } from "./kv-layout.ts";

export interface OwnershipSnapshot {
  /** `members/<id>` entries, held or not. */
  readonly members: readonly Entry[];
  /** `owners/<task>` entries, held or not. */
  readonly owners: readonly Entry[];
  /** The stored task names. */
  readonly tasks: ReadonlySet<string>;
}

/**
 * Follows the three parts until `signal` aborts or `reconcile` answers false (this instance is no
 * longer a member). `reconcile` first runs once every part was read, then after each change, one
 * call at a time: changes that arrive during a call are folded into the next one.
 */
export async function followOwnership(
  consul: ConsulClient,
  layout: KvLayout,
  logger: Logger,
  signal: AbortSignal,
  reconcile: (snapshot: OwnershipSnapshot) => Promise<boolean>,
): Promise<void> {
  const done = new AbortController();
  const onAbort = () => done.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  let members: Entry[] | undefined;
  let owners: Entry[] | undefined;
  let tasks: ReadonlySet<string> | undefined;
  let dirty = false;
  let draining: Promise<void> | undefined;

  const drain = async (): Promise<void> => {
    // Yield first: `draining` is assigned before a pass that has nothing to do clears it again.
    await Promise.resolve();
    while (dirty && !done.signal.aborted && members && owners && tasks) {
      dirty = false;
      try {
        if (!(await reconcile({ members, owners, tasks }))) done.abort();
      } catch (error) {
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
      consul.watch(consulQuery(`/v1/kv/${layout.tasksPrefix}`, { keys: "true", separator: "/" }), (result) => {
        const names = new Set(((result.data as string[] | undefined) ?? [])
          .map((key) => key.slice(layout.tasksPrefix.length)).filter((name) => name !== "" && !name.includes("/")));
        if (tasks && sameNames(tasks, names)) return;
        tasks = names;
        kick();
      }, done.signal, onError),
    ]);
    await draining;
  } finally {
    signal.removeEventListener("abort", onAbort);
    done.abort();
  }
}

function sameNames(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const name of a) if (!b.has(name)) return false;
  return true;
}
