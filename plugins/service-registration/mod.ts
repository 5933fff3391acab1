/**
 * @module Registers this daemon as a Consul service with a health check once the API listens,
 * and deregisters it on graceful stop. Transient failures (no answer, 429, 5xx) are retried with
 * backoff until registered or stopped; a rejection (400, 403) is logged (with a hint for ACL
 * denials). Neither ever stops CTS.
 */
import {
  configToken, consulClientToken, definePlugin, errorMessage, httpRouterToken, loggerToken, runOptionsToken, shutdownToken,
  sleep,
} from "../../core/plugin-api/mod.ts";
import { serviceRegistration } from "./src/registration.ts";

export { defaultCheck, healthCheckBase, serviceRegistration } from "./src/registration.ts";

/** How long registration waits for the API server to listen before registering anyway. */
const WAIT_FOR_API_MS = 10_000;

/** First retry after ~1 s, doubling up to 30 s (CTS: 1 s doubling, but it gives up after 8 retries). */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * Worth retrying: no HTTP answer (refused, reset, timeout), 429 and 5xx — Consul restarting or
 * rate-limiting. Any other 4xx (400 bad registration, 403 missing ACL) will not change by itself.
 */
function isTransient(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  if (status === undefined) return (error as { code?: string }).code === "CTS_ERR_CONSUL";
  return status === 429 || status >= 500;
}

/** Capped exponential delay; the upper half is random so restarted fleets do not retry in step. */
function retryDelay(attempt: number): number {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempt, 10));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Resolves with the API's URL once the kernel serves it (the kernel serves after start hooks). */
async function apiUrl(router: { readonly url: string | undefined }, signal: AbortSignal): Promise<string | undefined> {
  const deadline = Date.now() + WAIT_FOR_API_MS;
  while (router.url === undefined && !signal.aborted && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return router.url;
}

export default definePlugin({
  id: "service-registration",
  kind: "service",
  logName: "registration",
  description: "Registers the daemon with the Consul agent (service + /v1/health check)",
  deps: {
    consul: consulClientToken, config: configToken, router: httpRouterToken, logger: loggerToken, shutdown: shutdownToken,
    run: runOptionsToken,
  },
  init({ consul, config, router, logger, shutdown, run }, ctx) {
    const sr = config.consul.service_registration;
    // CTS registers from its daemon controller only: -once and -inspect never register.
    if (run.mode !== "daemon") return;
    if (!sr.enabled) {
      logger.debug("service registration disabled");
      return;
    }
    let registering: Promise<boolean> | undefined;

    const register = async (): Promise<boolean> => {
      // CTS registers right after its API server starts, so the first check already finds it.
      const url = await apiUrl(router, ctx.signal);
      if (ctx.signal.aborted) return false;
      // `port = 0` (tests) listens on a random port: advertise the real one.
      const port = config.port === 0 && url ? Number(new URL(url).port) : config.port;
      const service = serviceRegistration(config, port);
      // CTS's log lines, word for word (its e2e tests and users' log alerts match on them).
      const named = { service_name: service.Name, id: service.ID };
      logger.info("registering Consul-Terraform-Sync as a service with Consul", named);
      for (let attempt = 0; ; attempt++) {
        try {
          await consul.registerService(service);
          logger.info("Consul-Terraform-Sync registered as a service with Consul", named);
          logger.info("to view registered services, navigate to the Services section in the Consul UI", named);
          return true;
        } catch (error) {
          const status = (error as { status?: number }).status;
          const fields = { ...named, error: errorMessage(error) };
          if (!isTransient(error) || ctx.signal.aborted) {
            logger.error("error registering Consul-Terraform-Sync as a service with Consul", {
              ...fields,
              ...(status === 403
                ? { hint: "the Consul token needs service:write on this service; CTS keeps running unregistered" }
                : {}),
            });
            logger.warn("CTS will continue without registering itself as a service with Consul");
            return false;
          }
          const delay = retryDelay(attempt);
          logger.warn("error registering Consul-Terraform-Sync as a service with Consul, retrying", { ...fields, attempt: attempt + 1, retry_in_ms: delay });
          await sleep(delay, ctx.signal);
          if (ctx.signal.aborted) return false;
        }
      }
    };

    // In the background: a slow or absent Consul (the client retries) must not hold up start-up.
    ctx.lifecycle.onStart(() => {
      registering = register();
    });

    ctx.lifecycle.onStop(async () => {
      if (!registering || !(await registering)) return;
      // CTS deregisters on a graceful stop only: when the daemon ends on an error (its first run of
      // the tasks failed), the service stays, its check turns critical, and Consul drops it after
      // DeregisterCriticalServiceAfter (CTS's e2e TestE2E_ServiceRegistration_InitError pins it).
      const code = shutdown.requestedExitCode?.();
      if (code !== undefined && code !== 0) {
        logger.debug("not deregistering after a failed start, as CTS", { id: config.id, exit_code: code });
        return;
      }
      const named = { service_name: sr.service_name, id: config.id };
      logger.info("deregistering Consul-Terraform-Sync from Consul", named);
      try {
        await consul.deregisterService(config.id, sr.namespace !== "" ? { namespace: sr.namespace } : {});
        logger.info("Consul-Terraform-Sync deregistered from Consul", named);
      } catch (error) {
        logger.error("error deregistering Consul-Terraform-Sync from Consul", { ...named, error: errorMessage(error) });
      }
    });
  },
});
