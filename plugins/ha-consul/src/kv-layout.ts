/**
 * @module Where a cluster keeps its state in Consul KV. Documented in the README ("High availability").
 *
 *   <parent_path>/<cluster>/leader          lock key, held with the leader's session; value {id, address}
 *   <parent_path>/<cluster>/tasks/<name>    one task: {config, lastRun: {fingerprint, state}}
 *   <parent_path>/<cluster>/events/<name>   that task's events, newest first (JSON array)
 *   <parent_path>/<cluster>/runs/<name>/<id> one run record of that task's history (ids sort by start), without its detail
 *   <parent_path>/<cluster>/run-details/<name>/<id> that record's detail: output per phase, resources, outputs
 *   <parent_path>/<cluster>/members/<id>    shared mode: held with each live instance's session; {id, address}
 *   <parent_path>/<cluster>/owners/<name>   shared mode: the task's lock, held by its owner's session; {id, address}
 *
 * One key per task and one per task's events keeps every write a single CAS on a small value, so two
 * instances can never interleave a half-update and a task's events never grow another task's key.
 */
import type { HighAvailabilityConfig } from "../../../core/plugin-api/mod.ts";

export interface KvLayout {
  readonly root: string;
  readonly leaderKey: string;
  readonly tasksPrefix: string;
  readonly eventsPrefix: string;
  readonly runsPrefix: string;
  readonly runDetailsPrefix: string;
  readonly membersPrefix: string;
  readonly ownersPrefix: string;
  taskKey(name: string): string;
  eventsKey(name: string): string;
  /** Ends with `/`, so task "web" never lists "web-2"'s records. */
  taskRunsPrefix(name: string): string;
  runKey(name: string, id: string): string;
  taskRunDetailsPrefix(name: string): string;
  runDetailKey(name: string, id: string): string;
}

export function kvLayoutOf(ha: HighAvailabilityConfig): KvLayout {
  const parent = ha.cluster.storage.parent_path.replace(/^\/+/, "").replace(/\/+$/, "");
  const root = parent ? `${parent}/${ha.cluster.name}` : ha.cluster.name;
  const tasksPrefix = `${root}/tasks/`;
  const eventsPrefix = `${root}/events/`;
  const runsPrefix = `${root}/runs/`;
  const runDetailsPrefix = `${root}/run-details/`;
  return {
    root,
    leaderKey: `${root}/leader`,
    tasksPrefix,
    eventsPrefix,
    runsPrefix,
    runDetailsPrefix,
    membersPrefix: `${root}/members/`,
    ownersPrefix: `${root}/owners/`,
    // Task names are validated as single safe path segments, so they can be used as key segments as-is.
    taskKey: (name) => `${tasksPrefix}${name}`,
    eventsKey: (name) => `${eventsPrefix}${name}`,
    taskRunsPrefix: (name) => `${runsPrefix}${name}/`,
    runKey: (name, id) => `${runsPrefix}${name}/${id}`,
    taskRunDetailsPrefix: (name) => `${runDetailsPrefix}${name}/`,
    runDetailKey: (name, id) => `${runDetailsPrefix}${name}/${id}`,
  };
}
