/** @module The machine's host name, for the default instance id `cts-<hostname>`. */
import { hostname } from "node:os";

/** The OS host name (Node's `os.hostname()` also works under Deno's node compatibility). */
export function hostName(): string {
  return hostname();
}
