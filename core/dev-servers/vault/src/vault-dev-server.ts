/**
 * @module startVaultDevServer: the embedded Vault-compatible server as a library. Everything is in
 * memory and gone at stop(). Served over HTTP, or HTTPS with a given certificate.
 */
import { serveHttp } from "../../../runtime/serve-http.ts";
import { createVaultApp } from "./http/vault-app.ts";
import { newToken } from "./state/ids.ts";
import { VaultState } from "./state/vault-state.ts";

export interface VaultDevServerOptions {
  /** @default "127.0.0.1" */
  readonly hostname?: string;
  /** @default 0 (a free port) */
  readonly port?: number;
  /** The root token. @default a random `hvs.` token */
  readonly rootToken?: string;
  /** Serve HTTPS with this PEM certificate and key. */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** The clock TTLs are measured with (tests move it). @default Date.now */
  readonly clock?: () => number;
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
  const state = new VaultState(rootToken, options.clock ?? Date.now);
  state.mounts(""); // the root namespace's secret/ and kv/ exist from the start
  const http = await serveHttp({
    fetch: createVaultApp(state).fetch,
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    ...(options.tls ? { tls: options.tls } : {}),
  });
  let stopped: Promise<void> | undefined;
  return {
    url: http.url,
    port: http.port,
    rootToken,
    state,
    stop() {
      stopped ??= http.close();
      return stopped;
    },
  };
}
