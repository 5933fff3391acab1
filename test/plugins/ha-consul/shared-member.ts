/**
 * @module In-process shared cluster members (SharedCluster) with real Consul clients, for the
 * ownership tests; the engine is left out, so a member's "run ends" as soon as it is told to let go.
 */
import type { ClosableConsulClient } from "../../../plugins/consul-client/mod.ts";
import { kvLayoutOf } from "../../../plugins/ha-consul/src/kv-layout.ts";
import { SharedCluster } from "../../../plugins/ha-consul/src/shared-cluster.ts";
import { type CaptureLogger, createCaptureLogger } from "../../../harness/consul-client/capture-logger.ts";
import { testClient } from "../../../harness/consul-client/client-options.ts";
import { haConfig } from "../../../harness/ha-consul/ha-harness.ts";

export interface SharedMember {
  readonly id: string;
  readonly shared: SharedCluster;
  readonly client: ClosableConsulClient;
  readonly logger: CaptureLogger;
}

/** A member talking to Consul at `address` (the server itself, or a proxy in front of it). */
export async function startSharedMember(
  address: string, cluster: string, id: string, options: { ttlMs?: number; checkId?: string; taskNamesRefreshMs?: number } = {},
): Promise<SharedMember> {
  const { client } = await testClient(address);
  const logger = createCaptureLogger("ha");
  const ttlMs = options.ttlMs ?? 10_000;
  const shared = new SharedCluster({
    consul: client, layout: kvLayoutOf(haConfig(cluster, { ttlMs })), clusterName: cluster, instanceId: id, sessionTtlMs: ttlMs, logger,
    ...(options.checkId ? { checkId: options.checkId } : {}),
    ...(options.taskNamesRefreshMs ? { taskNamesRefreshMs: options.taskNamesRefreshMs } : {}),
  });
  shared.start();
  return { id, shared, client, logger };
}

export async function stopSharedMember(member: SharedMember): Promise<void> {
  await member.shared.stop();
  member.client.close();
}
