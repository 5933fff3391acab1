/** @module The Consul client service every plugin uses (provided by plugins/consul-client). */

/** A read endpoint that supports blocking queries, e.g. `/v1/health/service/web?passing=true`. */
export interface ConsulQuery {
  /** Path without query string, e.g. `/v1/health/service/web`. */
  readonly path: string;
  /** Query parameters other than `index`/`wait` (dc, ns, filter, passing, recurse, node-meta ...). */
  readonly params: Readonly<Record<string, string>>;
  /** Canonical identity: path plus sorted params. Equal keys are the same query. */
  readonly key: string;
}

/** Builds a query with its canonical key; empty-string params are dropped. */
export function consulQuery(path: string, params: Readonly<Record<string, string | undefined>> = {}): ConsulQuery {
  const kept: Record<string, string> = {};
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (value !== undefined && value !== "") kept[name] = value;
  }
  const search = new URLSearchParams(kept).toString();
  return Object.freeze({ path, params: Object.freeze(kept), key: search ? `${path}?${search}` : path });
}

/**
 * True for a Consul answer that is an error of the query itself, which no retry changes: any 4xx
 * but 429 (`400 Invalid query parameter`, a 403 ACL denial), `500 No path to datacenter` (unknown
 * datacenter) and `500 Failed to create boolean expression evaluator` (bad filter). Connection
 * failures, timeouts, 429 and other 5xx are outages, never permanent.
 */
export function isPermanentConsulError(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    (error as { code?: unknown }).code === "CTS_ERR_CONSUL" && (error as { permanent?: unknown }).permanent === true;
}

export interface ConsulQueryResult {
  /** Decoded JSON body; `undefined` for a 404 (e.g. a missing KV key). */
  readonly data: unknown;
  /** `X-Consul-Index` of the answer. */
  readonly index: number;
}

export interface BlockingOptions {
  /** Last index seen; 0 (default) answers at once. */
  readonly index?: number;
  /** Go duration, e.g. `5m`. */
  readonly wait?: string;
  readonly signal?: AbortSignal;
  /**
   * Transport failures, 429 and 5xx are retried with capped backoff until `signal` aborts
   * (default). `false` makes `query` throw on the first failure (once/inspect modes, probes).
   * Permanent errors (`isPermanentConsulError`) always throw at once.
   */
  readonly retry?: boolean;
}

export interface KvPair {
  readonly key: string;
  /** Decoded from base64 as UTF-8. */
  readonly value: string;
  readonly flags: bigint;
  readonly createIndex: number;
  readonly modifyIndex: number;
  readonly lockIndex: number;
  readonly session?: string;
}

export interface KvWriteOptions {
  readonly cas?: number;
  readonly acquire?: string;
  readonly release?: string;
  readonly flags?: bigint;
}

/** One operation of `kvTxn` (Consul's `PUT /v1/txn` KV verbs that CTS-runtime needs). */
export interface KvTxnOp {
  readonly verb: "lock" | "unlock" | "check-session" | "delete";
  readonly key: string;
  /** Written by lock/unlock (UTF-8; base64-encoded on the wire). */
  readonly value?: string;
  readonly session?: string;
}

export interface SessionOptions {
  readonly name?: string;
  /** Go duration, e.g. `15s`. */
  readonly ttl?: string;
  readonly behavior?: "release" | "delete";
  /** Go duration, e.g. `15s`; `0s` disables lock-delay. */
  readonly lockDelay?: string;
  readonly node?: string;
  /** Health check ids; `[]` means none (not even serfHealth). */
  readonly checks?: readonly string[];
}

export interface SessionInfo {
  readonly id: string;
  readonly name: string;
  readonly node: string;
  readonly ttl: string;
  readonly behavior: string;
}

/** Agent service registration, in Consul's JSON field names. */
export interface AgentServiceRegistration {
  readonly ID?: string;
  readonly Name: string;
  readonly Tags?: readonly string[];
  readonly Address?: string;
  readonly Port?: number;
  readonly Meta?: Readonly<Record<string, string>>;
  readonly Namespace?: string;
  readonly Check?: Readonly<Record<string, unknown>>;
  readonly Checks?: readonly Readonly<Record<string, unknown>>[];
}

/** Whether the client currently reaches Consul; an outage is reported, never fatal. */
export interface ConsulConnectionState {
  readonly healthy: boolean;
  readonly lastError?: string;
  /** Epoch ms of the last state change. */
  readonly since: number;
  readonly failures: number;
}

export interface ConsulClient {
  /** The address requests go to, e.g. `http://127.0.0.1:8500`. */
  readonly address: string;

  /** One (possibly blocking) GET. Throws `CtsError("CTS_ERR_CONSUL")` on failure. */
  query(query: ConsulQuery, options?: BlockingOptions): Promise<ConsulQueryResult>;
  /**
   * Keeps a blocking query open until `signal` aborts: honours and resets `X-Consul-Index`,
   * spaces fetches, retries with capped backoff forever, and calls `onResult` only when the
   * index moved (the caller compares data). Resolves when the signal aborts.
   *
   * `onError` hears each distinct permanent error of the query (see
   * `isPermanentConsulError`) once; the watch keeps retrying it slowly, outages stay silent.
   */
  watch(
    query: ConsulQuery,
    onResult: (result: ConsulQueryResult) => void,
    signal: AbortSignal,
    onError?: (error: Error) => void,
  ): Promise<void>;

  kvGet(key: string, options?: { signal?: AbortSignal }): Promise<KvPair | undefined>;
  kvList(prefix: string, options?: { signal?: AbortSignal }): Promise<KvPair[]>;
  /** Returns Consul's boolean answer (false when a cas/acquire did not take). */
  kvPut(key: string, value: string, options?: KvWriteOptions): Promise<boolean>;
  kvDelete(key: string, options?: { recurse?: boolean; cas?: number }): Promise<boolean>;
  /**
   * All-or-nothing KV operations (`PUT /v1/txn`, at most 64 a call): true when every one applied,
   * false when Consul rolled them back (409). Also moves a lock between sessions.
   */
  kvTxn(ops: readonly KvTxnOp[]): Promise<boolean>;

  sessionCreate(options: SessionOptions): Promise<string>;
  /** Returns false when the session no longer exists. */
  sessionRenew(id: string): Promise<boolean>;
  sessionDestroy(id: string): Promise<void>;
  sessionInfo(id: string): Promise<SessionInfo | undefined>;

  registerService(service: AgentServiceRegistration): Promise<void>;
  deregisterService(id: string, options?: { namespace?: string }): Promise<void>;
  /** `GET /v1/agent/self` → `Config.NodeName`, `Config.Datacenter`. */
  agentSelf(): Promise<{ nodeName: string; datacenter: string }>;

  /** Connection health, for status output and logs. */
  connectionState(): ConsulConnectionState;

  /**
   * This client with every KV, session and transaction request
   * (`/v1/kv/...`, `/v1/session/...`, `/v1/txn`, also through `query`/`watch`) sent in a Consul
   * Enterprise namespace (`ns`), as CTS does for `high_availability.cluster.storage "consul" {
   * namespace }`; other requests are unchanged. An empty namespace returns this client.
   */
  inNamespace(namespace: string): ConsulClient;

  /**
   * Optional: the credentials requests carry now: the consul block's, with
   * `{{ with secret }}` templates rendered. Whoever hands them on (a driver's `CONSUL_HTTP_TOKEN`)
   * reads them here rather than from the config, where a template stays a template.
   */
  credentials?(): ConsulCredentials;
  /**
   * Optional: calls `listener` after the credentials changed (a token rotated in
   * Vault). Requests already use the new ones: blocking queries parked with the old token are asked
   * again with the new one at the same index, so no watch starts over. Returns unsubscribe.
   */
  onCredentialsChange?(listener: () => void): () => void;
}

/** What `ConsulClient.credentials` answers. */
export interface ConsulCredentials {
  readonly token: string;
  /** HTTP basic auth, as the consul block's `auth {}` (sent only when `enabled`). */
  readonly auth: { readonly enabled: boolean; readonly username: string; readonly password: string };
}
