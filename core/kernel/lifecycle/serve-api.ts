/**
 * @module Serving the router (daemon mode): the `api {}` block's doors are set first — the token
 * (read from Vault when it is a `{{ with secret }}` template, then added to the secret masker), the
 * allowed origins and the listen address — so no request is ever answered without them.
 */
import {
  apiSettings, CtsError, type CtsConfig, type Logger, type SecretMasker, vaultSecretsToken,
} from "../../plugin-api/mod.ts";
import type { KernelHttpRouter } from "../../http/http-router.ts";
import type { HttpServerHandle, ServeHttpTls } from "../../runtime/serve-http.ts";
import { serveShedding } from "./load-shedding.ts";
import type { ScopedContainer } from "../container/scoped-container.ts";

export interface ApiListen {
  readonly hostname: string;
  readonly port: number;
  readonly tls?: ServeHttpTls;
}

/** The token as configured, rendered when it reads Vault. */
async function resolveToken(token: string, root: ScopedContainer): Promise<string> {
  if (!token.includes("{{")) return token;
  if (!root.has(vaultSecretsToken)) {
    throw new CtsError("CTS_ERR_VAULT", "Cannot read api.token from Vault: no plugin provides Vault secrets");
  }
  const rendered = await root.resolve(vaultSecretsToken).renderTemplate(token, "api.token");
  if (rendered.trim() === "") throw new CtsError("CTS_ERR_VAULT", "Cannot use api.token: its Vault template rendered an empty token");
  return rendered.trim();
}

export async function serveApi(
  config: CtsConfig, listen: ApiListen, router: KernelHttpRouter, root: ScopedContainer, secrets: SecretMasker, log: Logger,
): Promise<HttpServerHandle> {
  const api = apiSettings(config);
  const token = await resolveToken(api.token, root);
  if (token !== "") secrets.add(token, "api.token");
  router.guard.configure({ token, allowedOrigins: api.allowed_origins, listenAddress: listen.hostname });
  if (api.allowed_origins.includes("*")) {
    log.warn("api.allowed_origins has \"*\": any web page a user opens may change tasks through this API, as with CTS");
  }
  // Sheds load while descriptors run short; accept failures are logged once per shortage episode.
  return serveShedding({
    fetch: router.fetch,
    hostname: listen.hostname,
    port: listen.port,
    requestTimeoutMs: api.request_timeout,
    ...(listen.tls ? { tls: listen.tls } : {}),
  }, log);
}
