/**
 * Task-level fields a driver adds (DriverFactory.taskBlocks) in the HTTP API, over a real kernel
 * served over real HTTP: a third-party driver's block is checked by its driver's schema at
 * `POST /v1/tasks`, reaches the driver, is shown by GET only when set and is described by
 * `/v1/openapi.json`; a field of another registered driver is refused by the kernel. The HCP
 * Terraform driver's `terraform_cloud_workspace` goes the same way, with CTS's request validator
 * wording (`Error at "/task/terraform_cloud_workspace/<field>": value must be a string`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  definePlugin, driverRegistryToken, type Driver, type JsonSchema, type TaskConfig,
} from "../../../core/plugin-api/mod.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";

type Json = Record<string, unknown>;

/** What driver "stamp" was created with, per task. */
const created = new Map<string, TaskConfig>();

const stampSettingsSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    colour: { type: "string" }, copies: { type: "integer", minimum: 1 },
    // The kernel's duration format (run hooks' `timeout`): the API's checks know it too.
    every: { type: "string", format: "go-duration" },
  },
};

function create(task: TaskConfig): Promise<Driver> {
  created.set(task.name, task);
  const done = () => Promise.resolve();
  return Promise.resolve({
    init: done, render: done, apply: done, destroy: done,
    plan: () => Promise.resolve({ changesPresent: false, plan: "" }),
    version: () => Promise.resolve("stamp 1"),
  });
}

/**
 * `driver "stamp"` (the configured one) adds the task block `stamp_settings`; `driver "press"`,
 * registered but not configured, adds `press_settings`; `driver "smudge"` adds a block whose schema
 * does not compile (its plugin's bug). They apply nothing.
 */
const stampPlugin = definePlugin({
  id: "driver-stamp",
  kind: "driver",
  description: "third-party drivers adding task-level blocks",
  deps: { drivers: driverRegistryToken },
  init({ drivers }) {
    drivers.register({ name: "stamp", taskBlocks: { stamp_settings: stampSettingsSchema }, create });
    drivers.register({ name: "press", taskBlocks: { press_settings: { type: "object" } }, create });
    drivers.register({
      name: "smudge", taskBlocks: { smudge_settings: { type: "object", properties: { x: { type: "integre" } } } }, create,
    });
  },
});

function post(url: string, task: Json): Promise<Response> {
  return fetch(`${url}/v1/tasks`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ task }),
  });
}

async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: { message: string } }).error.message;
}

async function read(url: string, name: string): Promise<Json> {
  return ((await (await fetch(`${url}/v1/tasks/${name}`)).json()) as { task: Json }).task;
}

const schedule = { schedule: { cron: "0 0 1 1 *" } };

describe("task-level fields drivers add, in the HTTP API", () => {
  let daemon: ApiKernel;
  beforeAll(async () => {
    daemon = await startApiKernel({
      config: apiConfig({ driver: { name: "stamp", options: {} } }),
      plugins: [stampPlugin],
      // Registered but not configured: its terraform_cloud_workspace is accepted by the schema and refused by the kernel.
      extraPlugins: ["driver-terraform", "driver-terraform-cloud"],
    });
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it("a third-party driver's block goes through POST to its driver and is shown by GET", async () => {
    // The driver's schema, in the API validator's words.
    const bad = await post(daemon.url, { name: "stamp_bad", module: "./m", condition: schedule, stamp_settings: { copies: "2" } });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toBe(`request body has an error: doesn't match schema #/components/schemas/TaskRequest: Error at "/task/stamp_settings/copies": value must be an integer`);

    const settings = { colour: "red", copies: 2 };
    const good = await post(daemon.url, { name: "stamped", module: "./m", condition: schedule, stamp_settings: settings });
    expect(good.status, await good.clone().text()).toBe(201);
    const answered = ((await good.json()) as { task: Json }).task;
    expect(answered.stamp_settings).toEqual(settings);
    // Keys stay in CTS's (alphabetical) order with the driver's field among them.
    expect(Object.keys(answered)).toEqual([...Object.keys(answered)].sort());
    expect((await read(daemon.url, "stamped")).stamp_settings).toEqual(settings);
    expect((created.get("stamped") as unknown as Json | undefined)?.stamp_settings).toEqual(settings);
  });

  it("GET leaves a driver's block out when no field is set, as CTS does for terraform_cloud_workspace (api/representation.go)", async () => {
    // CTS: a block whose fields are all zero values ("") counts as unset.
    const empty = await post(daemon.url, { name: "unstamped", module: "./m", condition: schedule, stamp_settings: { colour: "" } });
    expect(empty.status, await empty.clone().text()).toBe(201);
    expect(Object.keys(await read(daemon.url, "unstamped"))).not.toContain("stamp_settings");
    expect(Object.keys(await read(daemon.url, "unstamped"))).not.toContain("terraform_cloud_workspace");
  });

  it("a field of a driver the task does not run on is refused by the kernel, as in config files; terraform_cloud_workspace keeps CTS's wording", async () => {
    const other = await post(daemon.url, { name: "pressed", module: "./m", condition: schedule, press_settings: { force: 3 } });
    expect(other.status).toBe(400);
    expect(await errorOf(other)).toContain(`press_settings: is only supported by the "press" driver`);

    // CTS: the generated request validator (kin-openapi) words a wrong type "value must be a string" at the field's path.
    const wrong = await post(daemon.url, {
      name: "tfc_bad", module: "./m", condition: schedule, terraform_cloud_workspace: { execution_mode: 1 },
    });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toBe(`request body has an error: doesn't match schema #/components/schemas/TaskRequest: Error at "/task/terraform_cloud_workspace/execution_mode": value must be a string`);

    // CTS: terraform_cloud_workspace is only for tasks on HCP Terraform; this daemon runs driver "stamp".
    const elsewhere = await post(daemon.url, {
      name: "tfc_elsewhere", module: "./m", condition: schedule, terraform_cloud_workspace: { execution_mode: "remote" },
    });
    expect(elsewhere.status).toBe(400);
    expect(await errorOf(elsewhere)).toContain(`terraform_cloud_workspace: is only supported by the "terraform-cloud" driver`);

    const unknown = await post(daemon.url, { name: "typo", module: "./m", condition: schedule, stamp_setting: {} });
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toBe(`request body has an error: doesn't match schema #/components/schemas/TaskRequest: Error at "/task": property "stamp_setting" is unsupported`);
  });

  it("a driver field whose schema does not compile is reported and left to the kernel; the other fields keep working", async () => {
    const smudged = await post(daemon.url, { name: "smudged", module: "./m", condition: schedule, smudge_settings: { x: 1 } });
    expect(smudged.status).toBe(400);
    expect(await errorOf(smudged)).toContain(`smudge_settings: is only supported by the "smudge" driver`);
    const good = await post(daemon.url, { name: "stamped_again", module: "./m", condition: schedule, stamp_settings: { copies: 1 } });
    expect(good.status, await good.clone().text()).toBe(201);
    expect(daemon.logs.filter((line) => line.includes("ignoring the invalid schema of a driver's task field"))).toEqual([
      expect.stringContaining("field=smudge_settings"),
    ]);
  });

  it("a driver field using the go-duration format is checked by the API as by the kernel", async () => {
    const bad = await post(daemon.url, { name: "timed_bad", module: "./m", condition: schedule, stamp_settings: { every: "soon" } });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toContain("every");
    const good = await post(daemon.url, { name: "timed", module: "./m", condition: schedule, stamp_settings: { every: "90s" } });
    expect(good.status, await good.clone().text()).toBe(201);
    expect(daemon.logs.some((line) => line.includes("field=stamp_settings"))).toBe(false);
  });

  it("/v1/openapi.json describes each driver's task fields by its driver's schema", async () => {
    const doc = (await (await fetch(`${daemon.url}/v1/openapi.json`)).json()) as {
      components: { schemas: Record<string, { properties: Record<string, Json> }> };
    };
    const task = doc.components.schemas.Task!.properties;
    expect(task.stamp_settings).toEqual(stampSettingsSchema);
    expect(Object.keys(task.terraform_cloud_workspace!.properties as Json))
      .toEqual(["execution_mode", "agent_pool_id", "agent_pool_name", "terraform_version"]);
    expect(task.terraform_version).toEqual(expect.objectContaining({ type: "string" }));
  });
});
