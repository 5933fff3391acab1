/**
 * @module CTS's weak decoding (mapstructure v1.5 WeaklyTypedInput, plus HookWeakDecodeFromSlice in HCL
 * files and in condition/module_input blocks of any format): what it accepts loads with the value CTS
 * would use; what it refuses is still refused. Core decodes its own fields; condition and module_input
 * bodies are decoded by their owners' schemas once the plugins are initialised (ownedConfigOf).
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { taskRequestFromFile } from "../../../core/cli/commands/task-request.ts";
import { issuesOf, loadFiles, ownedConfigOf, ownerIssuesOf, removeConfigDirs } from "./config-dir.ts";

afterAll(removeConfigDirs);

const hclTask = (condition: string, extra = "") => `
task {
  name   = "t"
  module = "./m"
  condition ${condition}
  ${extra}
}
`;

describe("one-element lists where one value is expected", () => {
  // CTS's own e2e test (e2e/module_input_test.go) writes regexp = ["web"] in condition "catalog-services".
  it("regexp = [\"web\"] in a catalog-services condition (HCL) is the string", async () => {
    const { config } = await ownedConfigOf({
      "a.hcl": hclTask(`"catalog-services" {\n    regexp = ["web"]\n    use_as_module_input = [false]\n  }`),
    });
    expect(config.tasks[0]!.condition).toMatchObject({ type: "catalog-services", regexp: "web", use_as_module_input: false });
  });

  it("in module_input blocks and JSON condition blocks too (CTS decodes those with the slice hook in any format)", async () => {
    const { config } = await ownedConfigOf({
      "a.json": JSON.stringify({
        task: [{
          name: "t", module: "./m",
          condition: [{ "consul-kv": [{ path: ["k"], recurse: [true] }] }],
          module_input: [{ services: [{ regexp: ["^api"] }] }],
        }],
      }),
    });
    expect(config.tasks[0]!.condition).toMatchObject({ type: "consul-kv", path: "k", recurse: true });
    expect(config.tasks[0]!.module_input).toMatchObject([{ type: "services", regexp: "^api" }]);
  });

  it("at the top level and in task fields of HCL files", async () => {
    const { config } = await loadFiles({
      "a.hcl": `log_level = ["debug"]\nport = [9000]\nconsul {\n  address = ["127.0.0.1:8500"]\n}\n` +
        hclTask(`"services" {\n    names = ["web"]\n  }`, `description = ["d"]`),
    });
    expect(config).toMatchObject({ log_level: "DEBUG", port: 9000, consul: { address: "127.0.0.1:8500" } });
    expect(config.tasks[0]!.description).toBe("d");
  });

  it("but not at the top level of JSON files, where CTS's JSON hooks have no slice hook", async () => {
    const issues = await issuesOf(loadFiles({ "a.json": JSON.stringify({ log_level: ["debug"] }) }));
    expect(issues).toEqual([{ file: "a.json", path: "log_level", message: "must be a string, got a list" }]);
  });

  it("lists of zero or several values stay errors", async () => {
    for (const regexp of [`[]`, `["web", "api"]`]) {
      const issues = await ownerIssuesOf({ "a.hcl": hclTask(`"catalog-services" {\n    regexp = ${regexp}\n  }`) });
      expect(issues).toEqual([{
        file: "a.hcl", path: "task[0].condition.catalog-services.regexp", message: "must be a string, got a list",
      }]);
    }
  });
});

describe("scalar conversions of WeaklyTypedInput", () => {
  it("numbers and booleans to strings, strings and numbers to booleans, strings to integers", async () => {
    const { config } = await ownedConfigOf({
      "a.hcl": `port = "0x2000"\nlog_json = "t"\nconsul {\n  address = 8500\n}\n` +
        hclTask(`"services" {\n    names = [1, true]\n    use_as_module_input = 0\n  }`, `enabled = "False"`),
    });
    expect(config).toMatchObject({ port: 8192, log_json: true, consul: { address: "8500" } });
    expect(config.tasks[0]).toMatchObject({ enabled: false, condition: { names: ["1", "1"], use_as_module_input: false } });
  });

  it("a single value where a list is expected becomes a one-element list; an empty block an empty list", async () => {
    const { config } = await ownedConfigOf({
      "a.json": JSON.stringify({
        task: [{ name: "t", module: "./m", providers: "null", variable_files: {}, condition: { services: { names: "web" } } }],
      }),
    });
    expect(config.tasks[0]).toMatchObject({ providers: ["null"], variable_files: [], condition: { names: ["web"] } });
  });

  it("strings that Go's ParseBool / ParseInt refuse are still refused", async () => {
    const issues = await issuesOf(loadFiles({ "a.hcl": `port = "80a"\nlog_json = "yes"\n` }));
    expect(issues.map((issue) => `${issue.path}: ${issue.message}`).sort()).toEqual([
      `log_json: must be a boolean (true or false), got "yes"`,
      `port: must be a whole number, got "80a"`,
    ]);
  });
});

describe("task files (task create -task-file)", () => {
  // CTS decodes a task file with the config decoder, so the same weak decoding applies: core decodes
  // the task's own fields, the built-in plugins (initialised by the CLI) the condition's.
  it("decode weakly too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cts-taskfile-"));
    try {
      writeFileSync(join(dir, "t.hcl"), hclTask(`"catalog-services" {\n    regexp = ["web"]\n  }`, `enabled = "0"`));
      writeFileSync(join(dir, "m.hcl"), hclTask(`"services" {\n    names = "web"\n    cts_user_defined_meta {\n      a = "b"\n    }\n  }`));
      expect(await taskRequestFromFile("t.hcl", dir, {})).toMatchObject({ enabled: false, condition: { catalog_services: { regexp: "web" } } });
      // HCL's block syntax for a map; the owner's defaults are sent too, as CTS's CLI sends them.
      expect((await taskRequestFromFile("m.hcl", dir, {})).condition).toEqual({
        services: { names: ["web"], cts_user_defined_meta: { a: "b" }, datacenter: "", namespace: "", filter: "", use_as_module_input: true },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
