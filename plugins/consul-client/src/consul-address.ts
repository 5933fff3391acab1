/** @module Turns CTS's `consul.address` (host:port or URL) and `tls.enabled` into a base URL. */
import { CtsError } from "../../../core/plugin-api/mod.ts";

export interface ConsulEndpoint {
  /** `http(s)://host:port[/prefix]`, no trailing slash. */
  readonly baseUrl: string;
  readonly secure: boolean;
}

/**
 * CTS accepts `localhost:8500` as well as full URLs. A bare address uses https when TLS is enabled;
 * an explicit scheme wins, and `https://` turns TLS on even when the tls block is empty.
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
  const secure = url.protocol === "https:";
  const port = url.port || (hasScheme ? (secure ? "443" : "80") : "8500");
  const prefix = url.pathname.replace(/\/+$/, "");
  return { baseUrl: `${url.protocol}//${url.hostname}:${port}${prefix}`, secure };
}
