/**
 * Third-party conditions and module inputs in the HTTP API, over a real kernel served over real
 * HTTP: a type whose owner gives an `api` face is checked, mapped and shown as that face says; a
 * type without one is accepted as any object (its owner's schema is checked by the kernel) and
 * shown as written. CTS has no third-party blocks; what is pinned from CTS is the API's task shape
 * (`condition: { <type with underscores>: {...} }`, api/representation.go) and its request
 * validator's texts (`Error at "/task/condition/<type>/<field>": value must be ...`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  conditionRegistryToken, definePlugin, moduleInputRegistryToken, type ConditionFactory, type ModuleInputFactory,
} from "../../../core/plugin-api/mod.ts";
import { startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";

type Json = Record<string, unknown>;

/** What each factory's `create` received, per task. */
const created: { task: string; kind: string; options: Json }[] = [];
const idle = { start: async () => {}, stop: () => {} };

/** `condition "kv-gate"`: options hold numbers and lists; the API spells them as strings. */
const gateRequestSchema = {
  type: "object",
  additionalProperties: false,
  required: ["level"],
  properties: { level: { type: "string", pattern: "^[0-9]+$" }, labels: { type: "string" } },
};
const gate: ConditionFactory = {
  name: "kv-gate",
  optionsSchema: {
    type: "object",
    additionalProperties: false,
    required: ["level"],
    properties: { level: { type: "integer", minimum: 1 }, labels: { type: "array", items: { type: "string" } } },
  },
  api: {
    requestSchema: gateRequestSchema,
    fromRequest: (body) => ({
      level: Number(body.level),
      ...(typeof body.labels === "string" ? { labels: body.labels.split(",") } : {}),
    }),
    represent: (block) => ({ level: String(block.level), labels: ((block.labels as string[] | undefined) ?? []).join(",") }),
  },
  create(config, task) {
    created.push({ task, kind: "condition", options: { ...config } });
    return idle;
  },
};

/** `condition "tally"` and `module_input "sticky-note"`: no `api` face, only option schemas. */
const tally: ConditionFactory = {
  name: "tally",
  optionsSchema: {
    type: "object",
    additionalProperties: false,
    properties: { count: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
  },
  create(config, task) {
    created.push({ task, kind: "condition", options: { ...config } });
    return idle;
  },
};
const note: ModuleInputFactory = {
  name: "sticky-note",
  optionsSchema: {
    type: "object", additionalProperties: false, required: ["text"], properties: { text: { type: "string" } },
  },
  create(config, task) {
    created.push({ task, kind: "module_input", options: { ...config } });
    return idle;
  },
};

/** `condition "broken"`: its face's request schema is not valid JSON Schema (a plugin's bug). */
const broken: ConditionFactory = {
  name: "broken",
  optionsSchema: { type: "object", additionalProperties: false, properties: { x: { type: "integer" } } },
  api: { requestSchema: { type: "object", properties: { x: { type: "integre" } } } },
  create(config, task) {
    created.push({ task, kind: "condition", options: { ...config } });
    return idle;
  },
};

const blocksPlugin = definePlugin({
  id: "test-api-blocks",
  kind: "condition",
  description: "third-party conditions and a module input for the API tests",
  deps: { conditions: conditionRegistryToken, moduleInputs: moduleInputRegistryToken },
  init({ conditions, moduleInputs }) {
    conditions.register(gate);
    conditions.register(tally);
    conditions.register(broken);
    moduleInputs.register(note);
  },
});

function post(url: string, task: Json): Promise<Response> {
  return fetch(`${url}/v1/tasks`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ task }),
  });
}

async function read(url: string, name: string): Promise<Json> {
  return ((await (await fetch(`${url}/v1/tasks/${name}`)).json()) as { task: Json }).task;
}

describe("third-party block types in the HTTP API", () => {
  let daemon: ApiKernel;
  beforeAll(async () => {
    daemon = await startApiKernel({ plugins: [blocksPlugin] });
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it("a condition with an `api` face: POST checks its request schema and maps the body, GET shows its representation", async () => {
    // The face's request schema, in the API validator's words (a number where it wants a string).
    const bad = await post(daemon.url, { name: "gate_bad", module: "./m", condition: { kv_gate: { level: 3 } } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message)
      .toBe(`request body has an error: doesn't match schema #/components/schemas/TaskRequest: Error at "/task/condition/kv_gate/level": value must be a string`);

    const good = await post(daemon.url, { name: "gate", module: "./m", condition: { kv_gate: { level: "3", labels: "a,b" } } });
    expect(good.status, await good.clone().text()).toBe(201);
    const shown = { kv_gate: { level: "3", labels: "a,b" } };
    expect(((await good.json()) as { task: Json }).task.condition).toEqual(shown);
    expect((await read(daemon.url, "gate")).condition).toEqual(shown);
    // The kernel saw the block as the face mapped it, and its options schema accepted it.
    expect(created.find((entry) => entry.task === "gate")?.options).toEqual({ type: "kv-gate", level: 3, labels: ["a", "b"] });
  });

  it("a condition and a module input without an `api` face round-trip their options; the kernel checks them", async () => {
    const task = {
      name: "plain",
      module: "./m",
      condition: { tally: { count: 2, tags: ["x"] } },
      module_input: { sticky_note: { text: "hello" } },
    };
    const bad = await post(daemon.url, { ...task, name: "plain_bad", module_input: { sticky_note: { text: { nested: 1 } } } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("sticky-note.text");

    const good = await post(daemon.url, task);
    expect(good.status, await good.clone().text()).toBe(201);
    const stored = await read(daemon.url, "plain");
    expect({ condition: stored.condition, module_input: stored.module_input })
      .toEqual({ condition: task.condition, module_input: task.module_input });
    expect(created.filter((entry) => entry.task === "plain").map((entry) => entry.options)).toEqual(expect.arrayContaining([
      { type: "tally", count: 2, tags: ["x"] },
      { type: "sticky-note", text: "hello" },
    ]));
  });

  it("a type whose request schema does not compile is reported and checked by the kernel; the other types keep working", async () => {
    const bad = await post(daemon.url, { name: "broken_bad", module: "./m", condition: { broken: { x: "one" } } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("condition.broken.x");
    const good = await post(daemon.url, { name: "broken_ok", module: "./m", condition: { broken: { x: 1 } } });
    expect(good.status, await good.clone().text()).toBe(201);
    expect(daemon.logs.filter((line) => line.includes("ignoring the invalid API request schema"))).toEqual([
      expect.stringContaining("condition=broken"),
    ]);
  });

  it("/v1/openapi.json describes every registered type: by its face's request schema, else by its options schema", async () => {
    const doc = (await (await fetch(`${daemon.url}/v1/openapi.json`)).json()) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const { Condition, ModuleInput } = doc.components.schemas;
    expect(Object.keys(Condition!.properties)).toEqual(expect.arrayContaining(["services", "schedule", "kv_gate", "tally"]));
    expect(Condition!.properties.kv_gate).toEqual(gateRequestSchema);
    expect(Condition!.properties.tally).toEqual(tally.optionsSchema);
    expect(ModuleInput!.properties.sticky_note).toEqual(note.optionsSchema);
  });
});
