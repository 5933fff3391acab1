import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../core/config/load-config.ts";
import { checkRegisteredNames, validateAgainstFactories } from "../../../core/config/check-registered-names.ts";
import type { ConditionFactory, DriverFactory, ModuleInputFactory } from "../../../core/plugin-api/mod.ts";

const load = () => loadConfig({
  paths: [{ kind: "file", path: "examples/configs/cts-reference.hcl" }], env: {}, cwd: process.cwd(), hostName: "h",
});
const FILE = "examples/configs/cts-reference.hcl";

describe("checkRegisteredNames", () => {
  test("every name registered: no issues", async () => {
    const loaded = await load();
    expect(checkRegisteredNames(loaded, {
      drivers: ["terraform"], conditions: ["services", "catalog-services", "consul-kv", "schedule"],
      moduleInputs: ["services", "consul-kv"],
    })).toEqual([]);
  });

  test("unknown names are listed with what is known, file and path", async () => {
    const loaded = await load();
    expect(checkRegisteredNames(loaded, { drivers: ["echo"], conditions: ["services"], moduleInputs: [] })).toEqual([
      { file: FILE, path: "driver.terraform", message: `unknown driver "terraform": known drivers are echo` },
      { file: FILE, path: "task[0].module_input[0].consul-kv", message: `unknown module_input "consul-kv": known module_inputs are (none)` },
      { file: FILE, path: "task[2].condition.catalog-services", message: `unknown condition "catalog-services": known conditions are services` },
      { file: FILE, path: "task[2].module_input[0].services", message: `unknown module_input "services": known module_inputs are (none)` },
      { file: FILE, path: "task[3].condition.consul-kv", message: `unknown condition "consul-kv": known conditions are services` },
      { file: FILE, path: "task[4].condition.schedule", message: `unknown condition "schedule": known conditions are services` },
      { file: FILE, path: "task[4].module_input[0].services", message: `unknown module_input "services": known module_inputs are (none)` },
    ]);
  });
});

describe("validateAgainstFactories", () => {
  const create = () => { throw new Error("not used"); };
  test("driver body and condition fields are checked against each factory's optionsSchema", async () => {
    const loaded = await load();
    const driver: DriverFactory = {
      name: "terraform", create,
      optionsSchema: { type: "object", additionalProperties: false, properties: { log: { type: "boolean" } } },
    };
    const strictServices: ConditionFactory = {
      name: "services", create,
      optionsSchema: { type: "object", properties: { filter: { type: "string", maxLength: 3 } } },
    };
    const others = ["catalog-services", "consul-kv", "schedule"].map((name): ConditionFactory => ({ name, create }));
    const inputs = ["services", "consul-kv"].map((name): ModuleInputFactory => ({ name, create }));
    const issues = validateAgainstFactories(loaded, { drivers: [driver], conditions: [strictServices, ...others], moduleInputs: inputs });
    expect(issues).toEqual([
      { file: FILE, path: "driver.terraform.backend", message: `unknown field "backend" (expected one of: log)` },
      { file: FILE, path: "driver.terraform.persist_log", message: `unknown field "persist_log" (expected one of: log)` },
      { file: FILE, path: "driver.terraform.required_providers", message: `unknown field "required_providers" (expected one of: log)` },
      { file: FILE, path: "task[0].condition.services.filter", message: "must NOT have more than 3 characters" },
    ]);
  });

  test("an invalid plugin schema is reported, not thrown", async () => {
    const loaded = await load();
    const driver: DriverFactory = { name: "terraform", create, optionsSchema: { type: "no-such-type" } };
    const issues = validateAgainstFactories(loaded, {
      drivers: [driver],
      conditions: ["services", "catalog-services", "consul-kv", "schedule"].map((name) => ({ name, create })),
      moduleInputs: ["services", "consul-kv"].map((name) => ({ name, create })),
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toContain("the plugin's optionsSchema is invalid");
  });
});
