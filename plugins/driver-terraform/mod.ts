/**
 * @module The built-in `terraform` driver: runs each task's module with Terraform or OpenTofu,
 * generating the same root module CTS does (see README.md), and provides that root module
 * (`terraformRootModuleToken`) to other drivers.
 */
import {
  definePlugin, defineService, driverRegistryToken, fileSystemToken, loggerToken, processRunnerToken, runOptionsToken,
  secretMaskerToken, terraformRootModuleToken,
} from "../../core/plugin-api/mod.ts";
import { developmentFactory, printerProcessRunner } from "./src/development-client.ts";
import { createTerraformDriverFactory } from "./src/driver-factory.ts";
import { terraformRootModule } from "./src/root-module-service.ts";

export { createTerraformDriverFactory } from "./src/driver-factory.ts";
export { terraformOptionsSchema } from "./src/options.ts";
export { terraformRootModule } from "./src/root-module-service.ts";

export default definePlugin({
  id: "driver-terraform",
  kind: "driver",
  logName: "driver.terraform",
  description: "Terraform / OpenTofu driver (driver \"terraform\")",
  // The root module renderer, for drivers that run Terraform elsewhere (driver-terraform-cloud).
  provides: [defineService({ token: terraformRootModuleToken, deps: {}, create: () => terraformRootModule })],
  deps: {
    drivers: driverRegistryToken, processes: processRunnerToken, fs: fileSystemToken, logger: loggerToken, run: runOptionsToken,
    secrets: secretMaskerToken,
  },
  init({ drivers, processes, fs, logger, run, secrets }, { signal }) {
    // Like CTS, the binary is found at start-up: the kernel calls the factory's verify once.
    if (run.clientType === "development") {
      const printer = printerProcessRunner(processes, logger.child("client.printer"));
      // CTS's fake handler prints to stdout (its e2e output shows the line).
      const print = (line: string) => void globalThis.console.log(line.trimEnd());
      drivers.register(developmentFactory(createTerraformDriverFactory({ processes: printer, fs, logger, stopping: signal, secrets }), print));
      return;
    }
    drivers.register(createTerraformDriverFactory({ processes, fs, logger, stopping: signal, secrets }));
  },
});
