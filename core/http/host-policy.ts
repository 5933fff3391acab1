/**
 * @module DNS rebinding protection: an API that listens on loopback answers only requests addressed
 * to a loopback name, or to the host of an origin the operator allowed (a reverse proxy in front of
 * it that keeps the `Host`). A web page whose host name an attacker re-points at 127.0.0.1 is
 * same-origin with the API in the browser's eyes, but its `Host` header still names that host.
 */

/** Whether `hostname` (as the server listens on it) reaches this machine only. */
export function isLoopbackAddress(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Why `request` is refused by an API listening on loopback at `listening`, or undefined.
 * `allowedOrigins` are api.allowed_origins: their hosts are this API's names too.
 */
export function hostRefusal(request: Request, listening: string, allowedOrigins: readonly string[]): string | undefined {
  const header = request.headers.get("host");
  if (header === null) return undefined; // HTTP/1.0 clients; no browser omits it
  const host = URL.canParse(`http://${header}/`) ? new URL(`http://${header}/`) : undefined;
  if (host && isLoopbackAddress(host.hostname)) return undefined;
  if (host && allowedOrigins.some((origin) => URL.canParse(origin) && new URL(origin).hostname === host.hostname)) return undefined;
  return `Cannot answer a request for host "${header}": the API listens on loopback (${listening}) and answers only ` +
    `localhost, 127.0.0.1, [::1] and the hosts of api.allowed_origins, so that a web page cannot reach it by re-pointing ` +
    `its own host name (DNS rebinding); list the origin it is served under in api.allowed_origins, or set api.address`;
}
