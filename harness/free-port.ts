/**
 * @module A TCP port free on 127.0.0.1 right now, for processes that must be told their port up front.
 *
 * The port comes from below Linux's ephemeral range (32768–60999, /proc/sys/net/ipv4/ip_local_port_range),
 * not from `listen(0)`, which hands out ports of that range: between our check and the moment the
 * process binds, any outbound connection on the machine (the daemon's own, to Consul) may take such a
 * port as its local port, and the process fails with EADDRINUSE. Nothing takes a port below the range
 * unasked, and one process never hands the same port out twice.
 */
import { createServer } from "node:net";

const FIRST = 20_000;
const LAST = 32_767;
const ATTEMPTS = 100;
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`Cannot find a free port on 127.0.0.1 between ${FIRST} and ${LAST} in ${ATTEMPTS} attempts`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
