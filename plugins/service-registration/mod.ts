/**
 * @module Registers this daemon as a Consul service with a health check once the API listens,
 * and deregisters it on graceful stop. A failed registration is logged (with a hint for ACL
 * denials) and never stops CTS.
 */
import {
  configToken, consulClientToken, definePlugin, errorMessage, httpRouterToken, loggerToken,
} from "../../core/plugin-api/mod.ts";
import { serviceRegistration } from "./src/registration.ts";

export { defaultCheck, healthCheckBase, serviceRegistration } from "./src/registration.ts";

/** How long registration waits for the API server to listen before registering anyway. */
const WAIT_FOR_API_MS = 10_000;

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
  deps: { consul: consulClientToken, config: configToken, router: httpRouterToken, logger: loggerToken },
  init({ consul, config, router, logger }, ctx) {
    const sr = config.consul.service_registration;
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
      try {
        await consul.registerService(service);
        logger.info("registered service with Consul", { id: service.ID, service_name: service.Name });
        return true;
      } catch (error) {
        const status = (error as { status?: number }).status;
        logger.error("error registering service with Consul", {
          id: service.ID,
          service_name: service.Name,
          error: errorMessage(error),
          ...(status === 403
            ? { hint: "the Consul token needs service:write on this service; CTS keeps running unregistered" }
            : {}),
        });
        return false;
      }
    };

    // In the background: a slow or absent Consul (the client retries) must not hold up start-up.
    ctx.lifecycle.onStart(() => {
      registering = register();
    });

    ctx.lifecycle.onStop(async () => {
      if (!registering || !(await registering)) return;
      try {
        await consul.deregisterService(config.id, sr.namespace !== "" ? { namespace: sr.namespace } : {});
        logger.info("deregistered service from Consul", { id: config.id });
      } catch (error) {
        logger.error("error deregistering service from Consul", { id: config.id, error: errorMessage(error) });
      }
    });
  },
});
