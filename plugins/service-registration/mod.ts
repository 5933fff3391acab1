/**
 * @module Registers this daemon as a Consul service with a health check, and deregisters it on
 * graceful stop. A failed registration is logged (with a hint for ACL denials) and never stops CTS.
 */
import {
  configToken, consulClientToken, definePlugin, errorMessage, loggerToken,
} from "../../core/plugin-api/mod.ts";
import { serviceRegistration } from "./src/registration.ts";

export { defaultCheck, healthCheckBase, serviceRegistration } from "./src/registration.ts";

export default definePlugin({
  id: "service-registration",
  kind: "service",
  description: "Registers the daemon with the Consul agent (service + /v1/health check)",
  deps: { consul: consulClientToken, config: configToken, logger: loggerToken },
  init({ consul, config, logger }, ctx) {
    const sr = config.consul.service_registration;
    if (!sr.enabled) {
      logger.debug("service registration disabled");
      return;
    }
    const service = serviceRegistration(config);
    let registering: Promise<boolean> | undefined;

    ctx.lifecycle.onStart(() => {
      // In the background: the Consul client retries, and a slow or absent Consul must not hold up start-up.
      registering = consul.registerService(service).then(
        () => {
          logger.info("registered service with Consul", { id: service.ID, service_name: service.Name });
          return true;
        },
        (error: unknown) => {
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
        },
      );
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
