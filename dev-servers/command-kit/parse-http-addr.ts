/** @module `-http-addr=<host:port>` of the dev-server commands: host (bracketed IPv6 allowed) and port. */

/** `host:port` → parts (an empty host means 127.0.0.1); undefined when it is not one. */
export function parseHttpAddr(text: string): { hostname: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port > 65535) return undefined;
  return { hostname: match[1] ?? (match[2] || "127.0.0.1"), port };
}
