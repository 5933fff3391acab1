/**
 * @module The embedded Consul-compatible dev server as a loadable plugin: a `plugin` block whose
 * `source` is this file serves a Consul HTTP API in-process from kernel start to stop. It is a dev
 * tool, not a built-in plugin; code that wants the handle directly uses mod.ts beside this file.
 */
import { definePlugin, errorMessage, fileSystemToken, loggerToken } from "../../core/plugin-api/mod.ts";
import { type ConsulDevServer, startConsulDevServer } from "./src/consul-dev-server.ts";

export interface ConsulDevServerPluginOptions {
  /** @default "127.0.0.1" */
  readonly hostname?: string;
  /** @default 8500 */
  readonly port?: number;
  /** @default "dc1" */
  readonly datacenter?: string;
  /** @default "consul-dev" */
  readonly node?: string;
  /** Management token; turns ACLs on. */
  readonly acl_token?: string;
  /** JSON snapshot file, resolved against the working directory. */
  readonly snapshot?: string;
}

export default definePlugin({
  id: "consul-dev-server",
  kind: "service",
  description: "Embedded Consul-compatible HTTP server (KV, catalog, health, sessions, txn) for dev mode and tests",
  optionsSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      hostname: { type: "string", default: "127.0.0.1" },
      port: { type: "integer", minimum: 0, maximum: 65535, default: 8500 },
      datacenter: { type: "string", minLength: 1, default: "dc1" },
      node: { type: "string", minLength: 1, default: "consul-dev" },
      acl_token: { type: "string", minLength: 1 },
      snapshot: { type: "string", minLength: 1 },
    },
  },
  deps: { logger: loggerToken, files: fileSystemToken },
  init({ logger, files }, ctx) {
    const options = ctx.options as ConsulDevServerPluginOptions;
    let server: ConsulDevServer | undefined;
    ctx.lifecycle.onStart(async () => {
      server = await startConsulDevServer({
        ...(options.hostname !== undefined ? { hostname: options.hostname } : {}),
        port: options.port ?? 8500,
        ...(options.datacenter !== undefined ? { datacenter: options.datacenter } : {}),
        ...(options.node !== undefined ? { node: options.node } : {}),
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
