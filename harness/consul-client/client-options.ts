/** @module Builds a Consul client for tests: plain config, real file system, fast backoff. */
import type { ConsulConfig } from "../../core/plugin-api/mod.ts";
import { testConsulConfig } from "../../core/plugin-testkit/src/test-config.ts";
import { createFileSystem } from "../../core/runtime/file-system.ts";
import { type ClosableConsulClient, createConsulClient } from "../../plugins/consul-client/mod.ts";
import { type CaptureLogger, createCaptureLogger } from "./capture-logger.ts";
import { createHttpClientFactory } from "../../core/runtime/http-client.ts";

export type TestConsulConfig = Pick<ConsulConfig, "address" | "token" | "auth" | "tls" | "transport">;

export function consulConfig(address: string, overrides: Partial<TestConsulConfig> = {}): TestConsulConfig {
  const { token, auth, tls, transport } = testConsulConfig();
  return { address, token, auth, tls, transport, ...overrides };
}

export async function testClient(
  address: string,
  overrides: Partial<TestConsulConfig> = {},
): Promise<{ client: ClosableConsulClient; logger: CaptureLogger }> {
  const logger = createCaptureLogger();
  const client = await createConsulClient({
    http: createHttpClientFactory(),
    consul: consulConfig(address, overrides),
    fs: createFileSystem(),
    logger,
    backoff: { baseMs: 20, maxMs: 200 },
  });
  return { client, logger };
}
