/**
 * @module The built-in `terraform` driver: runs each task's module with Terraform or OpenTofu,
 * generating the same root module CTS does (see README.md).
 */
import {
  configToken, definePlugin, driverRegistryToken, fileSystemToken, loggerToken, processRunnerToken,
} from "../../core/plugin-api/mod.ts";
import { createTerraformDriverFactory } from "./src/driver-factory.ts";

export { createTerraformDriverFactory } from "./src/driver-factory.ts";
export { terraformOptionsSchema } from "./src/options.ts";

export default definePlugin({
  id: "driver-terraform",
  kind: "driver",
  logName: "driver.terraform",
  description: "Terraform / OpenTofu driver (driver \"terraform\")",
  deps: {
    drivers: driverRegistryToken, processes: processRunnerToken, fs: fileSystemToken, logger: loggerToken,
    config: configToken,
  },
  init({ drivers, processes, fs, logger, config }, { lifecycle, signal }) {
    const factory = createTerraformDriverFactory({ processes, fs, logger });
    drivers.register(factory);
    // Like CTS, find the binary at start-up: a missing one fails start with the fix, not the first run.
    if (config.driver.name === factory.name) {
      lifecycle.onStart(async () => {
        await factory.verify!(config.driver, signal);
      }, { timeoutMs: 30_000 });
    }
  },
});
