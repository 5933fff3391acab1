/**
 * A run never starts on an input that was not received: a third-party condition that breaks the
 * `InputSource.start` contract (resolves before publishing the variable it declares) must not make
 * the engine apply an empty input, with the embedded Consul, the real engine and the recording driver.
 */
import { describe, expect, it } from "vitest";
import { conditionRegistryToken, definePlugin, type InputSource } from "../../../core/plugin-api/mod.ts";
import { recordingLog } from "../../../harness/driver-recording/mod.ts";
import { engineConfig, engineSuite, servicesTask, startEngine } from "../../../harness/task-engine/engine-harness.ts";

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

const suite = engineSuite();

describe("an input that was never received", () => {
  it("fails the -once run of that task (exit 11, naming the input) instead of applying without it", async () => {
    const task = servicesTask("hasty-task", [], { condition: { type: "hasty" } });
    suite.harness = await startEngine({
      config: engineConfig(suite.server.address, [task]),
      mode: "once",
      replace: { "condition-hasty": hastyCondition },
    });
    const exit = await suite.harness.exited;
    expect(exit.code).toBe(11);
    expect(exit.reason).toBe(`Cannot run task "hasty-task": Cannot start the run: its input "services" has not been received from Consul yet`);
    expect(recordingLog.filter((entry) => entry.op !== "init")).toEqual([]);
  });
});
