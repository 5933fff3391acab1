/**
 * @module The daemon's log of descriptor shortage: one line when an episode begins, one when it ends,
 * and one for API accept failures (EMFILE) per burst, never one per request or per connection.
 */
import type { Logger } from "../plugin-api/mod.ts";
import { descriptorGuard } from "../runtime/descriptor-guard.ts";

/** A burst of accept failures ends after this long without one. */
const QUIET_MS = 30_000;

export interface DescriptorEpisodeLog {
  /** The API server's own errors (its listening socket). */
  onServerError(error: Error): void;
  stop(): void;
}

export function logDescriptorEpisodes(log: Logger): DescriptorEpisodeLog {
  const unsubscribe = descriptorGuard.onEpisode((short, usage) => {
    const fields = { open_files: usage.open, limit: usage.limit };
    if (short) log.warn("file descriptors are running short: new API requests get 503, new processes wait for free ones", fields);
    else log.info("file descriptors are available again", fields);
  });
  let lastFailure = 0;
  let unreported = 0;
  return {
    onServerError(error) {
      const now = Date.now();
      const inBurst = now - lastFailure < QUIET_MS;
      lastFailure = now;
      if (inBurst) {
        unreported++;
        return;
      }
      const code = (error as { code?: unknown }).code;
      log.error("cannot accept API connections; the API keeps listening", {
        error: error.message, ...(typeof code === "string" ? { code } : {}), ...(unreported > 0 ? { earlier_failures: unreported } : {}),
      });
      unreported = 0;
    },
    stop: unsubscribe,
  };
}
