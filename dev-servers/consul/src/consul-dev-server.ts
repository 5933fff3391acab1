/**
 * @module startConsulDevServer: the embedded Consul-compatible server as a library — in-memory state,
 * optional ACLs and snapshot file, served over real HTTP on 127.0.0.1.
 */
import { CtsError, type FileSystem } from "../../../core/plugin-api/mod.ts";
import { serveHttp } from "../../../core/runtime/serve-http.ts";
import { AclTokens, type AclRules } from "./acl.ts";
import { AgentChecks } from "./agent/agent-checks.ts";
import { createConsulApp } from "./http/consul-app.ts";
import type { FaultHook } from "./http/fault-hook.ts";
import { QueryMemo } from "./http/query-memo.ts";
import { serfHealth } from "./routes/catalog-routes.ts";
import { type SnapshotNotice, SnapshotWriter } from "./snapshot-writer.ts";
import { ConsulState } from "./state/consul-state.ts";
import { decodeSnapshot, encodeSnapshot } from "./state/snapshot-codec.ts";

export interface ConsulDevServerOptions {
  /** @default "127.0.0.1" */
  readonly hostname?: string;
  /** @default 0 (a free port) */
  readonly port?: number;
  /** @default "dc1" */
  readonly datacenter?: string;
  /** The agent's node name. @default "consul-dev" */
  readonly node?: string;
  /** Management token; setting it turns ACLs on (default policy deny). */
  readonly aclToken?: string;
  /** Further tokens and their prefix rules (only with `aclToken`). */
  readonly aclRules?: AclRules;
  /** JSON snapshot loaded at start and written on change (debounced) and at stop. */
  readonly snapshotPath?: string;
  /** File access for the snapshot (required with `snapshotPath`). */
  readonly fileSystem?: Pick<FileSystem, "readText" | "writeText" | "exists">;
  /** Delay between a change and the snapshot write; Infinity writes only at stop. @default 250 */
  readonly snapshotDebounceMs?: number;
  /** Smallest session TTL accepted, in ms; lower it so HA tests fail over fast. @default 10000 (Consul's) */
  readonly sessionTtlMinMs?: number;
  /** Test-only: answers chosen requests in place of the server (429s, 5xx ...), e.g. to test retries. */
  readonly faults?: FaultHook;
  /** Told when the snapshot cannot be written (then writes are refused) and when it can again. */
  readonly onSnapshotNotice?: SnapshotNotice;
}

export interface ConsulDevServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `127.0.0.1:<port>` (what Consul clients call the address). */
  readonly address: string;
  readonly port: number;
  readonly datacenter: string;
  readonly node: string;
  /** The live state (tests and benches inspect it; mutate only through `state.write`). */
  readonly state: ConsulState;
  /** The tokens accepted with ACLs on (`aclToken`): grant and revoke them while it runs. */
  readonly acl: AclTokens;
  /** Ends parked queries, writes the snapshot, closes the listener. Idempotent. */
  stop(): Promise<void>;
}

async function loadSnapshot(options: ConsulDevServerOptions, state: ConsulState) {
  if (!options.snapshotPath) return [];
  if (!options.fileSystem) {
    throw new CtsError("CTS_ERR_PLUGIN_OPTIONS", "Cannot use a Consul dev snapshot: no fileSystem was given");
  }
  if (!(await options.fileSystem.exists(options.snapshotPath))) return [];
  try {
    return decodeSnapshot(state, await options.fileSystem.readText(options.snapshotPath));
  } catch (error) {
    throw new CtsError("CTS_ERR_PLUGIN_INIT", `Cannot load Consul dev snapshot ${options.snapshotPath}: ${
      error instanceof Error ? error.message : String(error)}`);
  }
}

export async function startConsulDevServer(options: ConsulDevServerOptions = {}): Promise<ConsulDevServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const datacenter = options.datacenter ?? "dc1";
  const nodeName = options.node ?? "consul-dev";
  const state = new ConsulState({ datacenter, nodeName, nodeId: crypto.randomUUID(), address: hostname });
  const restoredChecks = await loadSnapshot(options, state);
  const existing = state.catalog.getNode(nodeName);
  const local = state.write((tx) => {
    state.catalog.putNode(tx, {
      id: existing?.id ?? state.nodeId, node: nodeName, address: hostname, datacenter,
      taggedAddresses: { lan: hostname, lan_ipv4: hostname, wan: hostname, wan_ipv4: hostname },
      meta: existing?.meta ?? { "consul-network-segment": "" },
    });
    if (!state.catalog.getCheck(nodeName, "serfHealth")) state.putCheck(tx, serfHealth(nodeName));
    return state.catalog.getNode(nodeName)!;
  });
  state.nodeId = local.id;
  const agentChecks = new AgentChecks(state);
  for (const spec of restoredChecks) agentChecks.activate(spec);
  const acl = new AclTokens({ ...(options.aclToken ? { managementToken: options.aclToken } : {}), ...(options.aclRules ? { rules: options.aclRules } : {}) });
  const app = createConsulApp({
    state,
    acl,
    agentChecks,
    memo: new QueryMemo(),
    ...(options.sessionTtlMinMs !== undefined ? { sessionTtlMinNs: options.sessionTtlMinMs * 1e6 } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
  });
  let writer: SnapshotWriter | undefined;
  if (options.snapshotPath && options.fileSystem) {
    writer = new SnapshotWriter(options.fileSystem, options.snapshotPath,
      () => encodeSnapshot(state, agentChecks.specs()), options.snapshotDebounceMs ?? 250, options.onSnapshotNotice);
    state.onChange = () => writer!.changed();
    writer.changed();
  }
  let http;
  try {
    http = await serveHttp({ fetch: refusingUnsavedWrites(app.fetch, () => writer?.failure), hostname, port: options.port ?? 0 });
  } catch (error) {
    // e.g. the port is taken: release the timers so the caller can retry or exit cleanly.
    agentChecks.close();
    state.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    url: http.url,
    address: `${hostname}:${http.port}`,
    port: http.port,
    datacenter,
    node: local.node,
    state,
    acl,
    stop() {
      stopped ??= (async () => {
        agentChecks.close();
        state.close();
        await http.close();
        await writer?.flush();
        writer?.stop();
      })();
      return stopped;
    },
  };
}

/**
 * While the snapshot cannot be written, every request that could change the state answers 500 with
 * why (as Consul answers a write its raft log cannot take), so no write is acknowledged and then lost.
 */
function refusingUnsavedWrites(fetch: (request: Request) => Response | Promise<Response>, failure: () => string | undefined) {
  return (request: Request): Response | Promise<Response> => {
    const why = request.method === "GET" || request.method === "HEAD" ? undefined : failure();
    return why === undefined ? fetch(request) : new Response(`Cannot write: ${why}; this server accepts no writes until it can\n`, { status: 500 });
  };
}
