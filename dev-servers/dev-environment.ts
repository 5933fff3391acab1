/**
 * @module The servers `cts-runtime dev` starts around the daemon, as main.ts hands them to the CLI
 * (core/cli/dev-environment.ts is their shape). Loaded only when `dev` runs.
 */
import { startConsulDevServer } from "./consul/src/consul-dev-server.ts";
import { startDevTfc } from "./tfc/dev-environment.ts";
import { startDevVault } from "./vault/dev-environment.ts";

export const devEnvironment = {
  startConsul: (listen: { port: number; hostname: string }) => startConsulDevServer(listen),
  startTfc: startDevTfc,
  startVault: startDevVault,
};
