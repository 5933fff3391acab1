/**
 * @module DNS rebinding protection: an API that listens on loopback answers only requests addressed
 * to a loopback name. A web page whose host name an attacker re-points at 127.0.0.1 is same-origin
 * with the API in the browser's eyes, but its `Host` header still names the attacker's host.
 */

/** Whether `hostname` (as the server listens on it) reaches this machine only. */
export function isLoopbackAddress(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** Why `request` is refused by an API listening on loopback at `listening`, or undefined. */
export function hostRefusal(request: Request, listening: string): string | undefined {
  const header = request.headers.get("host");
  if (header === null) return undefined; // HTTP/1.0 clients; no browser omits it
  const hostname = URL.canParse(`http://${header}/`) ? new URL(`http://${header}/`).hostname : header;
  if (isLoopbackAddress(hostname)) return undefined;
  return `Cannot answer a request for host "${header}": the API listens on loopback (${listening}) and answers only ` +
    `localhost, 127.0.0.1 and [::1], so that a web page cannot reach it by re-pointing its own host name (DNS rebinding); ` +
    `set api.address to listen on another address`;
}
