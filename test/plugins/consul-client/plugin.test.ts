/** The plugin definition: what the kernel loads, and the service it creates from config. */
import { describe, expect, it } from "vitest";
import { consulClientToken, type CtsConfig } from "../../../core/plugin-api/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import plugin, { type ClosableConsulClient } from "../../../plugins/consul-client/mod.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { VaultSecretsService } from "../../../plugins/vault-client/src/vault-secrets-service.ts";
import { createCaptureLogger } from "../../../harness/consul-client/capture-logger.ts";
import { consulConfig } from "../../../harness/consul-client/client-options.ts";
import { until } from "./watch-collector.ts";

describe("consul-client plugin", () => {
  it("is a service plugin providing consulClientToken from config.consul", async () => {
    expect(plugin).toMatchObject({ id: "consul-client", kind: "service", $$type: "@cts-runtime/plugin" });
    const factory = plugin.provides![0]!;
    expect(factory.token).toBe(consulClientToken);
    const server = await startConsulDevServer();
    try {
      const config = { consul: consulConfig(server.address) } as unknown as CtsConfig;
      const logger = createCaptureLogger();
      const client = (await factory.create({
        config, fs: createFileSystem(), logger, http: createHttpClientFactory(),
        runOptions: { mode: "daemon", inspectTasks: [], resetStorage: false }, vault: new VaultSecretsService(undefined, createFileSystem(), logger),
      }, { pluginId: "consul-client", options: {}, lifecycle: { onStart() {}, onStop() {} }, signal: new AbortController().signal })) as ClosableConsulClient;
      expect(client.address).toBe(server.url);
      expect(await client.kvPut("plugin/k", "v")).toBe(true);
      expect((await client.kvGet("plugin/k"))?.value).toBe("v");
      await factory.dispose!(client);
      await until(() => client.socketCount() === 0); // dispose closed the keep-alive socket
    } finally {
      await server.stop();
    }
  });
});
