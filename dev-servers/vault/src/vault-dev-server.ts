/**
 * @module startVaultDevServer: the embedded Vault-compatible server as a library. Everything is in
 * memory and gone at stop(). Served over HTTP, or HTTPS with a given certificate. Leases expire on
 * its clock: a timer revokes each one whose time is up.
 */
import { serveHttp } from "../../../core/runtime/serve-http.ts";
import { createVaultApp } from "./http/vault-app.ts";
import { newToken } from "./state/ids.ts";
import { VaultState } from "./state/vault-state.ts";
import type { ConsulTokenSink } from "./engines/consul-engine.ts";

/** How often leases whose time is up are revoked (Vault's expiration manager acts at the expiry). */
const LEASE_SWEEP_MS = 100;

export interface VaultDevServerOptions {
  /** @default "127.0.0.1" */
  readonly hostname?: string;
  /** @default 0 (a free port) */
  readonly port?: number;
  /** The root token. @default a random `hvs.` token */
  readonly rootToken?: string;
  /** Serve HTTPS with this PEM certificate and key. */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** The clock TTLs and leases are measured with (tests move it). @default Date.now */
  readonly clock?: () => number;
  /**
   * Where the Consul secrets engine's tokens go (`consul/creds/<role>`): told when one is made and
   * when its lease is revoked or expires. Vault writes them to Consul's ACL system; a test wires this
   * to the embedded Consul's accepted tokens. @default nowhere (the tokens are only handed out)
   */
  readonly consulTokens?: ConsulTokenSink;
}

export interface VaultDevServer {
  /** `http://127.0.0.1:<port>` (or https): what VAULT_ADDR takes. */
  readonly url: string;
  readonly port: number;
  readonly rootToken: string;
  /** The live state (tests inspect it). */
  readonly state: VaultState;
  /** Closes the listener. Idempotent. */
  stop(): Promise<void>;
}

export async function startVaultDevServer(options: VaultDevServerOptions = {}): Promise<VaultDevServer> {
  const rootToken = options.rootToken ?? newToken();
  const state = new VaultState(rootToken, options.clock ?? Date.now, options.consulTokens);
  state.mounts(""); // the root namespace's secret/ and kv/ exist from the start
  const http = await serveHttp({
    fetch: createVaultApp(state).fetch,
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    ...(options.tls ? { tls: options.tls } : {}),
  });
  const sweeper = setInterval(() => state.leases.sweep(), LEASE_SWEEP_MS);
  let stopped: Promise<void> | undefined;
  return {
    url: http.url,
    port: http.port,
    rootToken,
    state,
    stop() {
      clearInterval(sweeper);
      stopped ??= http.close();
      return stopped;
    },
  };
}
