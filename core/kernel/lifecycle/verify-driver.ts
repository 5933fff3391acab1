/**
 * @module Start-up check of the configured driver: the kernel calls its factory's `verify` once,
 * after every plugin has registered and before any start hook, so a missing binary or a rejected
 * token stops start-up with the fix before the engine runs a task (CTS checks its driver at start too).
 */
import type { CtsConfig, DriverFactory, Logger, Registry } from "../../plugin-api/mod.ts";
import { withTimeout } from "./with-timeout.ts";

/** A remote driver's check is a few HTTP round trips; a local one finds and runs a binary. */
export const DRIVER_VERIFY_TIMEOUT_MS = 120_000;

/**
 * Verifies the `driver` block's factory, when one is registered and offers `verify` (a task that
 * names an unregistered driver is reported when the task is created). Rejects with the driver's own
 * error, so the caller can wrap it as "Cannot verify driver ...".
 */
export async function verifyConfiguredDriver(
  config: CtsConfig,
  drivers: Registry<DriverFactory>,
  signal: AbortSignal,
  log: Logger,
): Promise<void> {
  const factory = drivers.get(config.driver.name);
  if (!factory?.verify) return;
  const verify = factory.verify.bind(factory);
  const found = await withTimeout(
    () => verify(config.driver, signal),
    DRIVER_VERIFY_TIMEOUT_MS,
    "CTS_ERR_PLUGIN_INIT",
    `verify driver "${config.driver.name}"`,
  );
  log.debug("verified driver", { driver: config.driver.name, found });
}
