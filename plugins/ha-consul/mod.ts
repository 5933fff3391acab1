/**
 * @module High availability on Consul: one leader runs tasks, followers stand by and redirect,
 * state lives in Consul KV. Loaded instead of task-store-memory/leadership-standalone when the
 * config has a `high_availability` block.
 */
import {
  configToken, type ConsulClient, consulClientToken, type CtsConfig, daemonEventsToken, defineService, definePlugin,
  fileSystemToken, httpRouterToken,
  leadershipToken, loggerToken, runOptionsToken, taskStoreToken,
} from "../../core/plugin-api/mod.ts";
import { createClusterStatusHandler } from "./src/cluster-status.ts";
import { checkCompatibility, COMPATIBILITY_CHECK_INTERVAL_MS } from "./src/compatibility-check.ts";
import { ConsulTaskStore } from "./src/consul-task-store.ts";
import { damagedRecordsFor } from "./src/damaged-records.ts";
import { createFollowerRedirect } from "./src/follower-redirect.ts";
import { checkTrustedFrom, registrationCheckId } from "./src/instance-session.ts";
import { kvLayoutOf } from "./src/kv-layout.ts";
import { LeaderElection } from "./src/leader-election.ts";
import { createOwnerRedirect } from "./src/owner-redirect.ts";
import { seedConfiguredTasks } from "./src/cluster-entries.ts";
import { SharedCluster } from "./src/shared-cluster.ts";

const leaderElectionService = defineService({
  token: leadershipToken,
  deps: { config: configToken, consul: consulClientToken, logger: loggerToken },
  create({ config, consul: client, logger }): LeaderElection | SharedCluster {
    const ha = config.high_availability!;
    const consul = storageClient(client, config);
    const clusterOptions = {
      consul,
      layout: kvLayoutOf(ha),
      clusterName: ha.cluster.name,
      instanceId: config.id,
      ...(ha.instance.address ? { address: ha.instance.address } : {}),
      sessionTtlMs: ha.cluster.storage.session_ttl,
      checkId: registrationCheckId(config),
      checkTrustedFrom: checkTrustedFrom(config, Date.now()),
      logger,
      damaged: damagedRecordsFor(config, logger),
    };
    if (ha.cluster.mode === "shared") {
      return new SharedCluster({ ...clusterOptions, seed: () => seedConfiguredTasks(consul, clusterOptions.layout, config.tasks) });
    }
    return new LeaderElection(clusterOptions);
  },
  // Releasing the lock last (services are disposed after every onStop hook) lets runs drain first.
  dispose: (election) => election.stop(),
});

const consulTaskStoreService = defineService({
  token: taskStoreToken,
  deps: { config: configToken, consul: consulClientToken, logger: loggerToken },
  create: ({ config, consul, logger }) =>
    new ConsulTaskStore(storageClient(consul, config), kvLayoutOf(config.high_availability!), damagedRecordsFor(config, logger), logger),
});

/** The cluster's KV keys, sessions and transactions live in `storage "consul" { namespace }` (Consul Enterprise), as in CTS. */
function storageClient(consul: ConsulClient, config: CtsConfig): ConsulClient {
  return consul.inNamespace(config.high_availability?.cluster.storage.namespace ?? "");
}

export const haConsulPlugin = definePlugin({
  id: "ha-consul",
  kind: "service",
  logName: "ha",
  description: "Leader election, follower redirects and task state in Consul KV",
  provides: [leaderElectionService, consulTaskStoreService],
  deps: {
    config: configToken,
    consul: consulClientToken,
    router: httpRouterToken,
    files: fileSystemToken,
    logger: loggerToken,
    leadership: leadershipToken,
    store: taskStoreToken,
    runOptions: runOptionsToken,
    events: daemonEventsToken,
  },
  init({ config, consul, router, files, logger, leadership, store, runOptions, events }, { lifecycle, signal }) {
    const cluster = leadership as LeaderElection | SharedCluster;
    if (cluster instanceof SharedCluster) router.intercept(createOwnerRedirect(cluster.ownership, config.tls.enabled ? "https" : "http"));
    else router.intercept(createFollowerRedirect(leadership));
    router.mount("/v1/status/cluster", createClusterStatusHandler(
      consul, config, leadership, store, cluster instanceof SharedCluster ? () => cluster.readOwners() : undefined,
      cluster instanceof SharedCluster ? () => cluster.owners() : undefined,
    ));
    const unsubscribe = leadership.subscribe((isLeader) => {
      const leader = leadership.leader();
      events.publish({ type: "leadership", instance_id: leadership.instanceId, is_leader: isLeader, ...(leader ? { leader } : {}) });
    });

    const compatLogger = logger.child("compat");
    let timer: ReturnType<typeof setInterval> | undefined;
    lifecycle.onStart(async () => {
      // Only a daemon joins the election; -once/-inspect run outside the cluster and never hold the lock.
      if (runOptions.mode === "daemon") cluster.start();
      await checkCompatibility(store, files, compatLogger).catch((error) => compatLogger.error("cannot run compatibility check", { error }));
      timer = setInterval(() => void checkCompatibility(store, files, compatLogger).catch(() => {}), COMPATIBILITY_CHECK_INTERVAL_MS);
    });
    lifecycle.onStop(() => {
      clearInterval(timer);
      unsubscribe();
    });
    // The kernel aborts before it closes the API and runs stop hooks (deregistration among them).
    signal.addEventListener("abort", () => cluster.prepareStop(), { once: true });
  },
});

export default haConsulPlugin;
