/**
 * @module `GET /v1/status/cluster`: the cluster name, its leader and members, on any member.
 * Members are the instances registered in Consul with the tag `cts-cluster:<name>`; `healthy`
 * is that service instance's health, as CTS reports it.
 */
import { clusterFreshness, type ClusterFreshness, LastKnownHealth } from "./cluster-staleness.ts";
import {
  consulQuery, type ConsulClient, type CtsConfig, type DamagedRecord, type LeaderInfo, type Leadership, type StoredTask, type TaskOwnership, type TaskStore,
} from "../../../core/plugin-api/mod.ts";

export interface ClusterMember {
  readonly id: string;
  readonly service_name: string;
  readonly healthy: boolean;
  readonly leader: boolean;
  readonly address?: string;
}

/**
 * The `GET /v1/status/cluster` answer. The http-api plugin's schema documents it in the served
 * OpenAPI document (`ClusterStatusResponse`); test/plugins/http-api/api-body-types.test.ts keeps both alike.
 */
export interface ClusterStatus extends ClusterFreshness {
  readonly cluster_name: string;
  readonly members: readonly ClusterMember[];
  /** Shared cluster mode (beyond CTS): which instance runs each task ("" while it moves). */
  readonly mode?: "shared";
  readonly task_owners?: Readonly<Record<string, string>>;
  readonly damaged_records?: readonly DamagedRecord[];
  readonly request_id: string;
}

export interface HealthEntry {
  readonly Service: { readonly ID: string; readonly Service: string };
  readonly Checks: readonly { readonly Status: string }[];
}

export function clusterTag(clusterName: string): string {
  return `cts-cluster:${clusterName}`;
}

/** How long the members read may take: the status must answer while Consul is away, with what is known. */
export const MEMBERS_READ_MS = 2000;

/** The registered instances of the cluster, as Consul's health says; throws after `MEMBERS_READ_MS` or on the first failure. */
export async function readClusterHealth(consul: ConsulClient, config: CtsConfig): Promise<HealthEntry[]> {
  const cluster = config.high_availability!.cluster.name;
  const serviceName = config.consul.service_registration.service_name;
  const result = await consul.query(consulQuery(`/v1/health/service/${serviceName}`, { tag: clusterTag(cluster) }), {
    signal: AbortSignal.timeout(MEMBERS_READ_MS), retry: false,
  });
  return (result.data as HealthEntry[] | undefined) ?? [];
}

export async function clusterMembers(
  consul: ConsulClient,
  config: CtsConfig,
  leadership: Leadership,
  health?: readonly HealthEntry[],
): Promise<ClusterMember[]> {
  const serviceName = config.consul.service_registration.service_name;
  const entries = health ?? await readClusterHealth(consul, config);
  const leader = leadership.leader();
  const members = entries.map((entry): ClusterMember => {
    const isLeader = entry.Service.ID === leader?.id;
    return {
      id: entry.Service.ID,
      service_name: entry.Service.Service,
      healthy: entry.Checks.every((check) => check.Status === "passing"),
      leader: isLeader,
      ...(isLeader && leader?.address ? { address: leader.address } : {}),
    };
  });
  // An instance that could not register (or registration disabled) is still a member we know of.
  if (leader && !members.some((member) => member.id === leader.id)) {
    members.push({ id: leader.id, service_name: serviceName, healthy: true, leader: true, ...(leader.address ? { address: leader.address } : {}) });
  }
  return members.sort((a, b) => a.id.localeCompare(b.id));
}

/** Read from Consul when the cluster can (shared mode's `readOwners`); this instance's view if that read fails. */
async function taskOwners(
  ownership: TaskOwnership, tasks: readonly StoredTask[], readOwners?: () => Promise<ReadonlyMap<string, LeaderInfo>>,
): Promise<Record<string, string>> {
  const read = await readOwners?.().catch(() => undefined);
  const ownerOf = (task: string) => (read ? read.get(task) : ownership.ownerOf(task));
  return Object.fromEntries(tasks.map(({ config }) => [config.name, ownerOf(config.name)?.id ?? ""]));
}

export function createClusterStatusHandler(
  consul: ConsulClient, config: CtsConfig, leadership: Leadership, store?: TaskStore,
  readOwners?: () => Promise<ReadonlyMap<string, LeaderInfo>>,
  /** Shared mode, while Consul is unreachable: the owners as last read. */
  knownOwners?: () => ReadonlyMap<string, LeaderInfo>,
) {
  const lastKnown = new LastKnownHealth();
  return async (request: Request): Promise<Response> => {
    const requestId = crypto.randomUUID();
    if (request.method !== "GET") {
      return Response.json({ error: { message: `method ${request.method} not allowed` }, request_id: requestId }, { status: 405 });
    }
    try {
      const health = await lastKnown.read(() => readClusterHealth(consul, config));
      const members = await clusterMembers(consul, config, leadership, health.entries);
      const owners = !leadership.ownership ? undefined : health.fresh
        ? await taskOwners(leadership.ownership, await store?.listTasks() ?? [], readOwners)
        : Object.fromEntries([...(knownOwners?.() ?? [])].map(([task, owner]) => [task, owner.id]));
      return Response.json({
        cluster_name: config.high_availability!.cluster.name,
        members,
        // Shared cluster mode (beyond CTS): which instance runs each task ("" while it moves).
        ...(owners ? { mode: "shared", task_owners: owners } : {}),
        // Beyond CTS: whether this answer is current.
        ...clusterFreshness(consul, leadership, health),
        ...damagedRecordsField(store),
        request_id: requestId,
      } satisfies ClusterStatus);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return Response.json({ error: { message }, request_id: requestId }, { status: 500 });
    }
  };
}

/** Beyond CTS: the stored records this member found damaged (a follower sees a damaged leader lock). */
function damagedRecordsField(store?: TaskStore): Pick<ClusterStatus, "damaged_records"> {
  const damaged = store?.damagedRecords?.() ?? [];
  return damaged.length > 0 ? { damaged_records: damaged } : {};
}
