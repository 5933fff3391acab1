/**
 * A run never starts on an input that was not received: a third-party condition that breaks the
 * `InputSource.start` contract (resolves before publishing the variable it declares) must not make
 * the engine apply an empty input, with the embedded Consul, the real engine and the recording driver.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { conditionRegistryToken, definePlugin, type InputSource } from "../../../core/plugin-api/mod.ts";
import { startConsulDevServer } from "../../helpers/consul-dev-server.ts";
import { clearRecordingLog, recordingLog } from "../../fixtures/plugins/driver-recording/mod.ts";
import { engineConfig, servicesTask, startEngine, type Harness } from "./engine-harness.ts";

/** Declares `services` but never publishes it, and says it is ready at once. */
const hastyCondition = definePlugin({
  id: "condition-hasty",
  kind: "condition",
  deps: { conditions: conditionRegistryToken },
  init({ conditions }) {
    conditions.register({
      name: "hasty",
      create: (): InputSource => ({ variable: "services", start: () => Promise.resolve(), stop: () => {} }),
    });
  },
});

type DevServer = Awaited<ReturnType<typeof startConsulDevServer>>;
let server: DevServer;
let harness: Harness | undefined;

beforeAll(async () => {
  server = await startConsulDevServer();
});
afterAll(async () => {
  await server?.stop();
});
beforeEach(() => clearRecordingLog());
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

describe("an input that was never received", () => {
  it("fails the -once run of that task (exit 11, naming the input) instead of applying without it", async () => {
    const task = servicesTask("hasty-task", [], { condition: { type: "hasty" } });
    harness = await startEngine({
      config: engineConfig(server.address, [task]),
      mode: "once",
      replace: { "condition-hasty": hastyCondition },
    });
    const exit = await harness.exited;
    expect(exit.code).toBe(11);
    expect(exit.reason).toBe(`Cannot run task "hasty-task": Cannot start the run: its input "services" has not been received from Consul yet`);
    expect(recordingLog.filter((entry) => entry.op !== "init")).toEqual([]);
  });
});
