/**
 * @module The Consul client service plugin: provides `consulClientToken` (blocking queries that
 * ride out outages forever, KV, sessions, agent) built on the npm `consul` package. Its token and
 * basic auth may come from Vault (`{{ with secret }}`), rotated without restarting a watch.
 */
import {
  configToken, consulClientToken, daemonEventsToken, defineService, definePlugin, fileSystemToken, httpClientFactoryToken, loggerToken,
  runOptionsToken, vaultSecretsToken,
} from "../../core/plugin-api/mod.ts";
import { createConsulClient } from "./src/consul-client.ts";

export { createConsulClient } from "./src/consul-client.ts";
export type { ClosableConsulClient, ConsulClientOptions } from "./src/consul-client.ts";

export default definePlugin({
  id: "consul-client",
  kind: "service",
  logName: "client.consul",
  description: "Consul HTTP client: blocking queries with endless backoff, KV, sessions, agent",
  deps: {},
  provides: [
    defineService({
      token: consulClientToken,
      deps: {
        config: configToken, fs: fileSystemToken, logger: loggerToken, http: httpClientFactoryToken, events: daemonEventsToken,
        vault: vaultSecretsToken, runOptions: runOptionsToken,
      },
      create: ({ config, fs, logger, http, events, vault, runOptions }) => createConsulClient({
        consul: config.consul, fs, logger, http, events,
        // `validate` contacts nothing, Vault included.
        ...(runOptions.mode === "validate" ? {} : { vault }),
      }),
      dispose: (client) => client.close(),
    }),
  ],
});
