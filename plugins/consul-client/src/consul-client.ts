/** @module Assembles the ConsulClient service from its parts (transport, blocking queries, typed APIs). */
import type {
  ConsulClient, ConsulConfig, ConsulConnectionState, DaemonEvents, FileSystem, HttpAgent, HttpClientFactory, Logger, VaultSecrets,
} from "../../../core/plugin-api/mod.ts";
import { clientAgentOptions, readTlsFiles } from "../../../core/plugin-api/mod.ts";
import { AgentApi } from "./agent-api.ts";
import { DEFAULT_BACKOFF, type BackoffPolicy } from "./backoff.ts";
import { BlockingQueries } from "./blocking-queries.ts";
import { ConnectionMonitor } from "./connection-monitor.ts";
import { parseConsulAddress } from "./consul-address.ts";
import { ConsulCall } from "./consul-call.ts";
import { ConsulTransport } from "./consul-transport.ts";
import { CredentialSource } from "./credential-source.ts";
import { FetchSpacer, MIN_FETCH_GAP_MS } from "./fetch-spacer.ts";
import { KvApi } from "./kv-api.ts";
import { SessionApi } from "./session-api.ts";

/** The service plus what its owner needs: closing sockets, and a socket count for benches. */
export interface ClosableConsulClient extends ConsulClient {
  /** Destroys the keep-alive sockets; watches end through their own signals. */
  close(): void;
  /** Open sockets to Consul (in use + idle). */
  socketCount(): number;
}

export interface ConsulClientOptions {
  /** `config.consul`: address, token, auth, tls, transport (env fallbacks already applied). */
  readonly consul: Pick<ConsulConfig, "address" | "token" | "auth" | "tls" | "transport">;
  readonly fs: FileSystem;
  readonly logger: Logger;
  /** The kernel's HTTP service (`httpClientFactoryToken`): sockets and cancellation for npm `consul`. */
  readonly http: HttpClientFactory;
  /** Where connection lost/restored events go (the kernel's bus). */
  readonly events?: DaemonEvents;
  /**
   * Renders (and watches) `{{ with secret }}` in the token and auth fields. Without it (a client
   * that contacts nothing: `validate`) such a field stands for no credential.
   */
  readonly vault?: VaultSecrets;
  /** Tests shorten these; production uses the defaults. */
  readonly backoff?: BackoffPolicy;
  readonly fetchGapMs?: number;
}

export async function createConsulClient(options: ConsulClientOptions): Promise<ClosableConsulClient> {
  const { consul, logger } = options;
  const tls = consul.tls;
  const endpoint = parseConsulAddress(consul.address, tls.enabled);
  // CTS applies the TLS block only when it is enabled; an https:// address alone verifies against the system roots.
  const material = endpoint.secure && tls.enabled ? await readTlsFiles(tls, options.fs, "Consul") : undefined;
  const agent = options.http.createAgent(clientAgentOptions(endpoint.secure, tls, consul.transport, material));
  const credentials = await CredentialSource.create(consul, options.vault, logger);
  const transport = new ConsulTransport({
    baseUrl: endpoint.baseUrl,
    agent: agent.agent,
    cancelContext: (signal) => options.http.cancelContext(signal),
    credentials,
  });
  const monitor = new ConnectionMonitor(logger, endpoint.baseUrl, options.events);
  logger.debug("Consul client ready", { address: endpoint.baseUrl, tls: endpoint.secure });
  return assembleClient(transport, { options, monitor, agent, baseUrl: endpoint.baseUrl, credentials });
}

interface SharedParts {
  readonly options: ConsulClientOptions;
  readonly monitor: ConnectionMonitor;
  readonly agent: HttpAgent;
  readonly baseUrl: string;
  readonly credentials: CredentialSource;
}

/** The typed APIs over one transport; a namespaced view shares the connection pool and the outage state. */
function assembleClient(transport: ConsulTransport, shared: SharedParts): ClosableConsulClient {
  const { options, monitor, agent, credentials } = shared;
  const blocking = new BlockingQueries({
    transport,
    allowManyAbortListeners: (signal) => options.http.allowManyAbortListeners(signal),
    monitor,
    logger: options.logger,
    spacer: new FetchSpacer(options.fetchGapMs ?? MIN_FETCH_GAP_MS),
    backoff: options.backoff ?? DEFAULT_BACKOFF,
  });
  const call = new ConsulCall(transport, monitor);
  const kv = new KvApi(call);
  const sessions = new SessionApi(call);
  const agentApi = new AgentApi(call);
  const client: ClosableConsulClient = Object.freeze({
    address: shared.baseUrl,
    query: (query, opts) => blocking.query(query, opts),
    watch: (query, onResult, signal, onError) => blocking.watch(query, onResult, signal, onError),
    kvGet: (key, opts) => kv.get(key, opts),
    kvList: (prefix, opts) => kv.list(prefix, opts),
    kvPut: (key, value, opts) => kv.put(key, value, opts),
    kvDelete: (key, opts) => kv.delete(key, opts),
    kvTxn: (ops) => kv.txn(ops),
    sessionCreate: (opts) => sessions.create(opts),
    sessionRenew: (id) => sessions.renew(id),
    sessionDestroy: (id) => sessions.destroy(id),
    sessionInfo: (id) => sessions.info(id),
    registerService: (service) => agentApi.registerService(service),
    deregisterService: (id, opts) => agentApi.deregisterService(id, opts),
    agentSelf: () => agentApi.self(),
    connectionState: (): ConsulConnectionState => monitor.state,
    inNamespace: (namespace) => (namespace === "" ? client : assembleClient(transport.inNamespace(namespace), shared)),
    credentials: () => credentials.current(),
    onCredentialsChange: (listener) => credentials.onChange(listener),
    close: () => {
      credentials.close();
      agent.destroy();
    },
    socketCount: () => agent.socketCount(),
  } satisfies ClosableConsulClient);
  return client;
}

