/**
 * The engine tells a driver which variables a task's blocks render (DriverContext.inputs), also for a
 * third-party condition, so no driver guesses from type names (issue 12 item 3). Beyond CTS: CTS has
 * only built-in conditions; for those, the variables declared are CTS's (see cts-generated-layout).
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  conditionRegistryToken, definePlugin, type DriverContext, type InputSource,
  type TaskConfig,
} from "../../../core/plugin-api/mod.ts";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { engineConfig, startEngine, waitFor, type Harness } from "../../../harness/task-engine/engine-harness.ts";
import { capturingDriverPlugin } from "./capturing-driver.ts";

let server: Awaited<ReturnType<typeof startConsulDevServer>>;
let harness: Harness | undefined;
const contexts = new Map<string, DriverContext>();

beforeAll(async () => {
  server = await startConsulDevServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

/** A third-party condition that publishes `consul_kv` (from no Consul query: a constant). */
const kvWatchPlugin = definePlugin({
  id: "condition-kv-watch",
  kind: "condition",
  deps: { conditions: conditionRegistryToken },
  init({ conditions }) {
    conditions.register({
      name: "kv-watch",
      create: (): InputSource => ({
        variable: "consul_kv",
        start: (ctx) => Promise.resolve(ctx.publish("consul_kv", { "app/x": "1" })),
        stop: () => {},
      }),
    });
  },
});

const captureDriver = capturingDriverPlugin(contexts);

it("lists each rendered variable with its block, type and whether it triggers", async () => {
  const kvInput = { type: "consul-kv", path: "app", recurse: true, datacenter: "", namespace: "" };
  const tasks = [
    testTask("third-party", { driver: "capture", condition: { type: "kv-watch" }, module_input: [kvInput] as never }),
    // Blocks reach factories checked against their owners' schemas: a services block has no path/recurse.
    testTask("built-in", { driver: "capture", module_input: [{ type: "services", names: ["web"] }] as never }),
  ];
  harness = await startEngine({
    config: engineConfig(server.address, tasks),
    replace: { "condition-kv-watch": kvWatchPlugin, "driver-capture": captureDriver },
  });
  await waitFor(() => contexts.size === 2, "both drivers created");
  expect(contexts.get("third-party")!.inputs).toEqual([
    { variable: "consul_kv", block: "condition", type: "kv-watch", triggers: true },
    { variable: "consul_kv", block: "module_input", type: "consul-kv", triggers: false },
  ]);
  // testTask's condition is `services` on "web", rendered (use_as_module_input = true).
  expect(contexts.get("built-in")!.inputs).toEqual([
    { variable: "services", block: "condition", type: "services", triggers: true },
    { variable: "services", block: "module_input", type: "services", triggers: false },
  ]);
});
