/**
 * @module The snapshot file's JSON: every table plus the index, so a restart with the same file resumes
 * where it stopped (indexes included: watchers never see them go backwards).
 */
import { Uint64 } from "../exact-json.ts";
import type { ActiveCheckSpec } from "../agent/agent-checks.ts";
import type { ConsulState } from "./consul-state.ts";
import type { CatalogNode, HealthCheck, KvEntry, ServiceInstance, Session } from "./types.ts";

const FORMAT = "cts-runtime/consul-dev-snapshot@1";

interface SnapshotKv extends Omit<KvEntry, "flags"> {
  readonly flags: string;
}

export interface Snapshot {
  readonly format: typeof FORMAT;
  readonly index: number;
  readonly kv: { readonly entries: SnapshotKv[]; readonly tombstones: [string, number][]; readonly tableIndex: number };
  readonly catalog: {
    readonly nodes: CatalogNode[];
    readonly services: ServiceInstance[];
    readonly checks: HealthCheck[];
    readonly serviceIndexes: [string, number][];
    readonly nodeIndexes: [string, number][];
    readonly listIndex: number;
    readonly checksIndex: number;
  };
  readonly sessions: { readonly list: Session[]; readonly tableIndex: number };
  readonly agentChecks: ActiveCheckSpec[];
}

export function encodeSnapshot(state: ConsulState, agentChecks: readonly ActiveCheckSpec[]): string {
  const { kv, catalog, sessions } = state;
  const snapshot: Snapshot = {
    format: FORMAT,
    index: state.clock.current,
    kv: {
      entries: [...kv.entries.values()].map((e) => ({ ...e, flags: e.flags.digits })),
      tombstones: [...kv.tombstones],
      tableIndex: kv.tableIndex,
    },
    catalog: {
      nodes: [...catalog.nodes.values()],
      services: [...catalog.services.values()].flatMap((m) => [...m.values()]),
      checks: [...catalog.checks.values()].flatMap((m) => [...m.values()]),
      serviceIndexes: [...catalog.serviceIndexes],
      nodeIndexes: [...catalog.nodeIndexes],
      listIndex: catalog.listIndex,
      checksIndex: catalog.checksIndex,
    },
    sessions: { list: [...sessions.sessions.values()], tableIndex: sessions.tableIndex },
    agentChecks: [...agentChecks],
  };
  return JSON.stringify(snapshot);
}

/** Loads a snapshot into an empty state; returns the agent check specs to re-activate. */
export function decodeSnapshot(state: ConsulState, text: string): ActiveCheckSpec[] {
  const snapshot = JSON.parse(text) as Snapshot;
  if (snapshot.format !== FORMAT) throw new Error(`unknown snapshot format ${JSON.stringify(snapshot.format)}`);
  const { kv, catalog, sessions } = state;
  state.clock.raiseTo(snapshot.index);
  for (const e of snapshot.kv.entries) kv.entries.set(e.key, { ...e, flags: new Uint64(e.flags) });
  for (const [key, index] of snapshot.kv.tombstones) kv.tombstones.set(key, index);
  kv.tableIndex = snapshot.kv.tableIndex;
  for (const n of snapshot.catalog.nodes) catalog.nodes.set(n.node.toLowerCase(), n);
  for (const s of snapshot.catalog.services) catalog.loadService(s);
  for (const c of snapshot.catalog.checks) {
    const key = c.node.toLowerCase();
    if (!catalog.checks.has(key)) catalog.checks.set(key, new Map());
    catalog.checks.get(key)!.set(c.checkId, c);
  }
  for (const [k, v] of snapshot.catalog.serviceIndexes) catalog.serviceIndexes.set(k, v);
  for (const [k, v] of snapshot.catalog.nodeIndexes) catalog.nodeIndexes.set(k, v);
  catalog.floorIndex = snapshot.index;
  catalog.listIndex = snapshot.catalog.listIndex;
  catalog.checksIndex = snapshot.catalog.checksIndex;
  for (const s of snapshot.sessions.list) sessions.sessions.set(s.id, s);
  sessions.tableIndex = snapshot.sessions.tableIndex;
  state.rearmSessionTimers();
  return snapshot.agentChecks ?? [];
}
