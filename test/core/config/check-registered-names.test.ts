import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../core/config/load-config.ts";
import { checkRegisteredNames } from "../../../core/config/check-registered-names.ts";

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
