/** @module Turns CTS's `consul.address` (host:port or URL) and `tls.enabled` into a base URL. */
import { CtsError } from "../../../core/plugin-api/mod.ts";

export interface ConsulEndpoint {
  /** `http(s)://host:port[/prefix]`, no trailing slash. */
  readonly baseUrl: string;
  readonly secure: boolean;
}

/**
 * CTS accepts `localhost:8500` as well as full URLs. As in Consul's Go client, https is used when TLS
 * is enabled (also for an `http://` address: TLS that was asked for is never dropped) and for an
 * `https://` address even when the tls block is disabled.
 */
export function parseConsulAddress(address: string, tlsEnabled: boolean): ConsulEndpoint {
  const raw = address.trim() || "localhost:8500";
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);
  let url: URL;
  try {
    url = new URL(hasScheme ? raw : `${tlsEnabled ? "https" : "http"}://${raw}`);
  } catch {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use Consul address "${raw}": not host:port or a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot use Consul address "${raw}": scheme must be http or https`);
  }
  const secure = url.protocol === "https:" || tlsEnabled;
  const port = url.port || (hasScheme ? (url.protocol === "https:" ? "443" : "80") : "8500");
  const prefix = url.pathname.replace(/\/+$/, "");
  return { baseUrl: `${secure ? "https:" : "http:"}//${url.hostname}:${port}${prefix}`, secure };
}
