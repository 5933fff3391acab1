/**
 * The order in which the API lists tasks, against a real kernel over real HTTP (recording driver,
 * schedule tasks that never fire, so no Consul is needed).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { CtsApiClient } from "../../../core/cli/api-client.ts";
import { clearRecordingLog, recorded } from "../../../harness/driver-recording/mod.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";

const NEVER = "0 0 1 1 *";
const scheduled = (name: string) => testTask(name, { condition: { type: "schedule", cron: NEVER }, driver: "recording" });

describe("task order in the API", () => {
  let daemon: ApiKernel;
  let client: CtsApiClient;

  beforeAll(async () => {
    clearRecordingLog();
    daemon = await startApiKernel({ config: apiConfig({ tasks: ["zulu", "alpha", "mike"].map(scheduled) }) });
    client = new CtsApiClient(daemon.url);
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it("GET /v1/tasks lists configuration order, then creation order; /v1/status/tasks keys stay alphabetical", async () => {
    // CTS pins: the start-up pass runs tasks in configuration order (controller/once.go onceConsecutive).
    await daemon.tasks.idle();
    expect(recorded("apply").map((entry) => entry.task)).toEqual(["zulu", "alpha", "mike"]);
    const created = await client.request("POST", "/v1/tasks", { task: { name: "bravo", module: "./module", condition: { schedule: { cron: NEVER } } } });
    expect(created.status).toBe(201);
    // CTS pins: GET /v1/tasks answers ctrl.Tasks(), the state store's task list, which keeps the
    // configured tasks in config order and appends created ones (state/in_memory_store.go SetTask).
    const listed = (await client.request("GET", "/v1/tasks")).body as { tasks: { name: string }[] };
    expect(listed.tasks.map((task) => task.name)).toEqual(["zulu", "alpha", "mike", "bravo"]);
    // CTS pins: /v1/status/tasks is a Go map encoded by encoding/json, which sorts map keys.
    const status = (await client.request("GET", "/v1/status/tasks")).body as Record<string, unknown>;
    expect(Object.keys(status)).toEqual(["alpha", "bravo", "mike", "zulu"]);
  });
});
