/**
 * @module The embedded Consul-compatible dev server as a loadable plugin: a `plugin` block whose
 * `source` is this file serves a Consul HTTP API in-process from kernel start to stop. It is a dev
 * tool, not a built-in plugin; code that wants the handle directly uses mod.ts beside this file.
 */
import {
  definePlugin, errorMessage, fileSystemToken, type JsonSchema, loggerToken, type OptionsOf, type PluginContext,
} from "../../core/plugin-api/mod.ts";
import { type ConsulDevServer, startConsulDevServer } from "./src/consul-dev-server.ts";

const optionsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    hostname: { type: "string", default: "127.0.0.1" },
    port: { type: "integer", minimum: 0, maximum: 65535, default: 8500 },
    datacenter: { type: "string", minLength: 1, default: "dc1" },
    node: { type: "string", minLength: 1, default: "consul-dev" },
    /** Management token; turns ACLs on. */
    acl_token: { type: "string", minLength: 1 },
    /** JSON snapshot file, resolved against the working directory. */
    snapshot: { type: "string", minLength: 1 },
  },
} as const satisfies JsonSchema;

/** The plugin block's options, as its schema describes them (defaults applied by the kernel). */
export type ConsulDevServerPluginOptions = OptionsOf<typeof optionsSchema>;

export default definePlugin({
  id: "consul-dev-server",
  kind: "service",
  description: "Embedded Consul-compatible HTTP server (KV, catalog, health, sessions, txn) for dev mode and tests",
  optionsSchema,
  deps: { logger: loggerToken, files: fileSystemToken },
  init({ logger, files }, ctx: PluginContext<ConsulDevServerPluginOptions>) {
    const { options } = ctx;
    let server: ConsulDevServer | undefined;
    ctx.lifecycle.onStart(async () => {
      server = await startConsulDevServer({
        hostname: options.hostname,
        port: options.port,
        datacenter: options.datacenter,
        node: options.node,
        ...(options.acl_token !== undefined ? { aclToken: options.acl_token } : {}),
        ...(options.snapshot !== undefined ? { snapshotPath: files.resolve(options.snapshot), fileSystem: files } : {}),
      });
      logger.info("embedded Consul-compatible server listening", {
        address: server.address, datacenter: server.datacenter, node: server.node,
      });
    });
    ctx.lifecycle.onStop(async () => {
      try {
        await server?.stop();
      } catch (error) {
        logger.warn("stopping the embedded Consul server failed", { error: errorMessage(error) });
      }
    });
  },
});
