/**
 * Service factories get the lifecycle of the plugin that provides them (issue 12 item 3): their start
 * and stop hooks run with the plugin's, dispose sees the instance create returned, and create reads
 * the plugin's validated options. Beyond CTS: no CTS behaviour.
 */
import { expect, it } from "vitest";
import { createToken, defineService, definePlugin, type ServiceContext } from "../../../core/plugin-api/mod.ts";
import { createKernel } from "../../../core/kernel/kernel.ts";
import { daemonRun, recordingLogSink, testConfig } from "./kernel-fixtures.ts";

interface Pump { readonly rate: number }
const pumpToken = createToken<Pump>("test.pump");

it("runs a service's hooks with its plugin's, and disposes the concrete instance last", async () => {
  const journal: string[] = [];
  class RunningPump implements Pump {
    readonly rate: number;
    constructor(rate: number) {
      this.rate = rate;
    }
    halt(): void {
      journal.push(`dispose pump at ${this.rate}`);
    }
  }
  const pumpService = defineService({
    token: pumpToken,
    deps: {},
    create(_deps, { options, lifecycle, pluginId }: ServiceContext<{ rate: number }>) {
      journal.push(`create pump for ${pluginId}`);
      lifecycle.onStart(() => void journal.push("start pump"));
      lifecycle.onStop(() => void journal.push("stop pump"));
      return new RunningPump(options.rate);
    },
    dispose: (pump) => pump.halt(),
  });
  const provider = definePlugin({
    id: "pumps",
    kind: "service",
    optionsSchema: { type: "object", additionalProperties: false, properties: { rate: { type: "integer", default: 7 } } },
    provides: [pumpService],
    deps: {},
    init(_deps, ctx) {
      journal.push("init pumps");
      ctx.lifecycle.onStart(() => void journal.push("start pumps"));
      ctx.lifecycle.onStop(() => void journal.push("stop pumps"));
    },
  });
  const consumer = definePlugin({
    id: "user",
    kind: "service",
    deps: { pump: pumpToken },
    init({ pump }, ctx) {
      ctx.lifecycle.onStart(() => void journal.push(`start user at ${pump.rate}`));
    },
  });
  const kernel = await createKernel({
    config: testConfig(), runOptions: daemonRun, logSink: recordingLogSink(), builtins: [], plugins: [consumer, provider],
  });
  await kernel.start();
  await kernel.stop();
  expect(journal).toEqual([
    "create pump for pumps", "init pumps",
    "start pump", "start pumps", "start user at 7",
    "stop pumps", "stop pump",
    "dispose pump at 7",
  ]);
});
