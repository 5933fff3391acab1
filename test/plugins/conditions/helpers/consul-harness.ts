/**
 * @module Integration harness: the embedded Consul-compatible server over real HTTP, the real
 * consul-client, and the task engine's real shared QueryWatcher, plus small writers that change
 * Consul state the way operators do (catalog register/deregister, KV put/delete).
 */
import type { ConsulQuery, ConsulQueryResult, LogFields, Logger } from "../../../../core/plugin-api/mod.ts";
import { eventually, testConsulConfig } from "../../../../core/plugin-testkit/mod.ts";
import { createFileSystem } from "../../../../core/runtime/file-system.ts";
import { type ClosableConsulClient, createConsulClient } from "../../../../plugins/consul-client/mod.ts";
import { SharedQueryWatcher } from "../../../../plugins/task-engine/mod.ts";
import { startConsulDevServer } from "../../../../harness/consul-dev-server.ts";
import { createHttpClientFactory } from "../../../../core/runtime/http-client.ts";

export interface CheckSpec {
  readonly CheckID: string;
  readonly Status: "passing" | "warning" | "critical";
  readonly Output?: string;
}

export interface ServiceSpec {
  readonly node: string;
  readonly id: string;
  readonly name: string;
  readonly tags?: readonly string[];
  readonly port?: number;
  readonly address?: string;
  readonly meta?: Readonly<Record<string, string>>;
  readonly nodeMeta?: Readonly<Record<string, string>>;
  readonly checks?: readonly CheckSpec[];
}

export interface ConsulHarness {
  readonly url: string;
  readonly client: ClosableConsulClient;
  readonly watcher: SharedQueryWatcher;
  register(service: ServiceSpec): Promise<void>;
  deregister(node: string, serviceId: string): Promise<void>;
  /** `query` is appended as is, e.g. `?flags=42`. */
  kvPut(key: string, value: string, query?: string): Promise<void>;
  kvDelete(key: string): Promise<void>;
  /** A raw GET of the server, for fixtures captured from real answers. */
  get(pathAndQuery: string): Promise<unknown>;
  /** A raw request with a JSON (or, for a string, raw) body. */
  request(method: string, pathAndQuery: string, body?: unknown): Promise<unknown>;
  /**
   * Watches `query` through the same shared watcher (so the same blocking query) until an answer
   * satisfies `check`. Listeners run in subscription order, so once this sees an answer every
   * source subscribed earlier has processed it.
   */
  observe(query: ConsulQuery, check: (result: ConsulQueryResult) => boolean, what: string): Promise<void>;
  close(): Promise<void>;
}

const silent: Logger = {
  name: "test",
  trace() {}, debug() {}, info() {},
  warn(message: string, fields?: LogFields) {
    if (process.env.CTS_TEST_DEBUG) console.warn(message, fields);
  },
  error(message: string, fields?: LogFields) {
    console.error(message, fields);
  },
  child: () => silent,
};

export async function startConsulHarness(): Promise<ConsulHarness> {
  const server = await startConsulDevServer();
  const client = await createConsulClient({
    http: createHttpClientFactory(),
    consul: testConsulConfig({ address: server.url }),
    fs: createFileSystem(),
    logger: silent,
    backoff: { baseMs: 20, maxMs: 200 },
  });
  const watcher = new SharedQueryWatcher(client, silent);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text === "" ? undefined : JSON.parse(text) as unknown;
  };
  const nodeAddresses = new Map<string, string>();
  const nodeAddress = (node: string) => {
    if (!nodeAddresses.has(node)) nodeAddresses.set(node, `10.0.0.${nodeAddresses.size + 1}`);
    return nodeAddresses.get(node)!;
  };
  return {
    url: server.url,
    client,
    watcher,
    async register(s) {
      await call("PUT", "/v1/catalog/register", {
        Node: s.node,
        Address: nodeAddress(s.node),
        NodeMeta: s.nodeMeta ?? {},
        Service: {
          ID: s.id, Service: s.name, Tags: s.tags ?? [], Port: s.port ?? 80, Address: s.address ?? "", Meta: s.meta ?? {},
        },
        Checks: (s.checks ?? [{ CheckID: `${s.id}-check`, Status: "passing" }]).map((c) => ({
          CheckID: c.CheckID, Name: c.CheckID, Status: c.Status, Output: c.Output ?? "", ServiceID: s.id,
        })),
      });
    },
    async deregister(node, serviceId) {
      await call("PUT", "/v1/catalog/deregister", { Node: node, ServiceID: serviceId });
    },
    async kvPut(key, value, query = "") {
      await call("PUT", `/v1/kv/${key}${query}`, value);
    },
    async kvDelete(key) {
      await call("DELETE", `/v1/kv/${key}`);
    },
    get: (pathAndQuery) => call("GET", pathAndQuery),
    request: call,
    async observe(query, check, what) {
      let seen = false;
      const unsubscribe = watcher.subscribe(query, (result) => {
        if (check(result)) seen = true;
      });
      try {
        await eventually(() => seen, what);
      } finally {
        unsubscribe();
      }
    },
    async close() {
      watcher.close();
      client.close();
      await server.stop();
    },
  };
}
