/**
 * The testkit's createTestWatcher: the engine's shared watcher, booted with only the built-ins it
 * needs, over the embedded Consul server. Beyond CTS (a test helper for plugin authors); the
 * watch itself follows CTS's blocking queries: a KV change reaches the subscriber.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ConsulQueryResult, consulQuery } from "../../../core/plugin-api/mod.ts";
import { createTestWatcher, eventually, type TestWatcher } from "../../../core/plugin-testkit/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";

let consul: TestConsulDevServer;
let test: TestWatcher | undefined;
beforeAll(async () => {
  consul = await startConsulDevServer();
});
afterAll(async () => {
  await test?.stop();
  await consul?.stop();
});

const put = (value: string) => fetch(`${consul.url}/v1/kv/watched`, { method: "PUT", body: value });
const decoded = (result: ConsulQueryResult | undefined) =>
  atob((result?.data as { Value: string }[] | undefined)?.[0]?.Value ?? "");

it("watches a real Consul, counts what it holds open and releases it", async () => {
  await put("one");
  test = await createTestWatcher(consul.address);
  const before = test.watcher.stats();
  const results: ConsulQueryResult[] = [];
  const unsubscribe = test.watcher.subscribe(consulQuery("/v1/kv/watched"), (result) => results.push(result));
  await eventually(() => decoded(results.at(-1)) === "one", "the first value");
  expect(test.watcher.stats()).toEqual({ open: before.open + 1, subscribers: before.subscribers + 1 });
  await put("two");
  await eventually(() => decoded(results.at(-1)) === "two", "the changed value");
  unsubscribe();
  expect(test.watcher.stats()).toEqual(before);
});
