/**
 * @module The built-in `terraform-cloud` driver: runs each task in an HCP Terraform (or Terraform
 * Enterprise) workspace instead of a local binary. Shaped like a third-party package: it imports the
 * plugin contract and its own folder only, and renders the root module through driver-terraform's
 * `terraformRootModuleToken`. See README.md.
 */
import {
  configToken, definePlugin, driverRegistryToken, environmentToken, fileSystemToken, httpClientFactoryToken, loggerToken,
  secretMaskerToken, terraformRootModuleToken, vaultSecretsToken,
} from "../../core/plugin-api/mod.ts";
import { createTerraformCloudDriverFactory } from "./src/driver-factory.ts";
import { checkRequiredOptions } from "./src/options.ts";

export { createTerraformCloudDriverFactory } from "./src/driver-factory.ts";
export { terraformCloudOptionsSchema } from "./src/options.ts";

export default definePlugin({
  id: "driver-terraform-cloud",
  kind: "driver",
  logName: "driver.tfc",
  description: "HCP Terraform / Terraform Enterprise driver (driver \"terraform-cloud\")",
  deps: {
    drivers: driverRegistryToken, http: httpClientFactoryToken, fs: fileSystemToken, logger: loggerToken,
    config: configToken, env: environmentToken, vault: vaultSecretsToken, secrets: secretMaskerToken,
    // The root module comes from driver-terraform: one renderer, CTS's files in both drivers.
    rootModule: terraformRootModuleToken,
  },
  init({ drivers, http, fs, logger, config, env, vault, rootModule, secrets }, { lifecycle, signal }) {
    // The kernel's stop signal ends every wait on a run (the run stays in HCP Terraform).
    const factory = createTerraformCloudDriverFactory({ http, fs, logger, env, vault, rootModule, secrets, stopping: signal });
    drivers.register(factory);
    lifecycle.onStop(() => factory.close());
    if (config.driver.name === factory.name) {
      // A missing organization or token is a config error: `validate` reports it, not the first run.
      // The token and organization themselves are checked by verify, which the kernel calls at start.
      checkRequiredOptions(config.driver.options, env);
    }
  },
});
