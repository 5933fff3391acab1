/**
 * @module `GET /v1/status/cluster`: the cluster name, its leader and members, on any member.
 * Members are the instances registered in Consul with the tag `cts-cluster:<name>`; `healthy`
 * is that service instance's health, as CTS reports it.
 */
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

interface HealthEntry {
  readonly Service: { readonly ID: string; readonly Service: string };
  readonly Checks: readonly { readonly Status: string }[];
}

export function clusterTag(clusterName: string): string {
  return `cts-cluster:${clusterName}`;
}

export async function clusterMembers(
  consul: ConsulClient,
  config: CtsConfig,
  leadership: Leadership,
): Promise<ClusterMember[]> {
  const cluster = config.high_availability!.cluster.name;
  const serviceName = config.consul.service_registration.service_name;
  const result = await consul.query(consulQuery(`/v1/health/service/${serviceName}`, { tag: clusterTag(cluster) }));
  const leader = leadership.leader();
  const members = ((result.data as HealthEntry[] | undefined) ?? []).map((entry): ClusterMember => {
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
) {
  return async (request: Request): Promise<Response> => {
    const requestId = crypto.randomUUID();
    if (request.method !== "GET") {
      return Response.json({ error: { message: `method ${request.method} not allowed` }, request_id: requestId }, { status: 405 });
    }
    try {
      const members = await clusterMembers(consul, config, leadership);
      const owners = leadership.ownership ? await taskOwners(leadership.ownership, await store?.listTasks() ?? [], readOwners) : undefined;
      return Response.json({
        cluster_name: config.high_availability!.cluster.name,
        members,
        // Shared cluster mode (beyond CTS): which instance runs each task ("" while it moves).
        ...(owners ? { mode: "shared", task_owners: owners } : {}),
        ...damagedRecordsField(store),
        request_id: requestId,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return Response.json({ error: { message }, request_id: requestId }, { status: 500 });
    }
  };
}

/** Beyond CTS: the stored records this member found damaged (a follower sees a damaged leader lock). */
function damagedRecordsField(store?: TaskStore): { damaged_records?: readonly DamagedRecord[] } {
  const damaged = store?.damagedRecords?.() ?? [];
  return damaged.length > 0 ? { damaged_records: damaged } : {};
}
