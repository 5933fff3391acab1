/**
 * @module Configurations CTS refuses at start-up are refused at load, with the file and the field; a
 * near-identical configuration CTS accepts still loads.
 */
import { afterAll, describe, expect, it } from "vitest";
import { issuesOf, loadFiles, ownedConfigOf, removeConfigDirs } from "./config-dir.ts";

afterAll(removeConfigDirs);

const task = (body: string) => `
task {
  name   = "t"
  module = "./m"
${body}
}
`;

describe("deprecated services field with a services condition", () => {
  // CTS: TaskConfig.validateCondition — a non-empty `services` list and `condition "services"` both
  // monitor the "services" variable, only one may be configured per task.
  it("is rejected", async () => {
    const issues = await issuesOf(loadFiles({
      "a.hcl": task(`  services = ["api"]\n  condition "services" {\n    names = ["web"]\n  }`),
    }));
    expect(issues).toEqual([{
      file: "a.hcl", path: "task[0].services",
      message: expect.stringContaining(`and condition "services" both monitor the "services" variable`),
    }]);
  });

  it("with another condition type, the list is the services module input (accepted)", async () => {
    const { config, issues } = await ownedConfigOf({
      "a.hcl": task(`  services = ["api"]\n  condition "catalog-services" {\n    regexp = "web"\n  }`),
    });
    expect(issues).toEqual([]);
    expect(config.tasks[0]!.module_input).toMatchObject([{ type: "services", names: ["api"] }]);
  });

  it("an empty list next to a services condition is accepted, as CTS only counts a non-empty list", async () => {
    const { config } = await loadFiles({
      "a.hcl": task(`  services = []\n  condition "services" {\n    names = ["web"]\n  }`),
    });
    expect(config.tasks[0]!.condition).toMatchObject({ type: "services", names: ["web"] });
  });
});

describe("deprecated service blocks", () => {
  // CTS: ServiceConfigs.Validate — the id (default: the name) of every service block is unique.
  it("an id equal to another block's name (its default id) is rejected", async () => {
    const issues = await issuesOf(loadFiles({
      "a.hcl": `service {\n  name = "web"\n}\nservice {\n  name = "api"\n  id   = "web"\n}\n` +
        task(`  services = ["web"]\n  condition "catalog-services" {\n    regexp = "x"\n  }`),
    }));
    expect(issues).toEqual([{
      file: "a.hcl", path: "service[1].id",
      message: `unique service IDs are required: "web" is already the id of service[0] in a.hcl (a service block's id defaults to its name)`,
    }]);
  });

  it("two blocks of one name without ids are rejected; with distinct ids they load", async () => {
    const same = await issuesOf(loadFiles({ "a.hcl": `service {\n  name = "web"\n}\nservice {\n  name = "web"\n}\n` }));
    expect(same).toEqual([expect.objectContaining({ path: "service[1].name" })]);
    await loadFiles({
      "a.hcl": `service {\n  name = "web"\n  id = "web-1"\n}\nservice {\n  name = "web"\n  id = "web-2"\n}\n`,
    });
  });

  it("an id equal to its own name, or another name used as an id nowhere else, loads", async () => {
    await loadFiles({
      "a.hcl": `service {\n  name = "web"\n  id = "web"\n}\nservice {\n  name = "api"\n  id   = "web-api"\n}\n` +
        task(`  services = ["web", "web-api"]\n  condition "catalog-services" {\n    regexp = "x"\n  }`),
    });
  });
});

describe("variable files", () => {
  // CTS: tftmpl.ParseModuleVariables evaluates each attribute with an empty evaluation context, so
  // `true + 1` (and references, function calls) fail and CTS does not start, while an expression of
  // literals is evaluated and its value kept.
  const files = (value: string) => ({
    "a.hcl": task(`  variable_files = ["v.tfvars"]\n  condition "services" {\n    names = ["web"]\n  }`),
    "v.tfvars": `a = "x"\nb = ${value}\n`,
  });

  for (const value of ["true + 1", "var.other", `upper("x")`, `"pre-\${var.x}"`, `["ok", local.y]`]) {
    it(`b = ${value} is rejected`, async () => {
      const issues = await issuesOf(loadFiles(files(value)));
      expect(issues).toEqual([{
        file: "a.hcl", path: "task[0].variable_files",
        message: expect.stringMatching(/^cannot read variable file "v\.tfvars": "b" = .* cannot be evaluated \(variable files hold values: no variables, no functions\): /),
      }]);
    });
  }

  it("says why: HCL's reason", async () => {
    const [issue] = await issuesOf(loadFiles(files("true + 1")));
    expect(issue!.message).toMatch(/: Unsuitable value for left operand: a number is required$/);
    const [call] = await issuesOf(loadFiles(files(`upper("x")`)));
    expect(call!.message).toMatch(/Function calls not allowed/);
  });

  it("expressions of literals load as their value, as CTS evaluates them", async () => {
    const { config } = await loadFiles(files(`{ n = 1 + 1, s = "v\${2 * 3}", c = 2 > 1 ? "yes" : "no", i = ["a", "b"][1] }`));
    expect(config.tasks[0]!.variables).toEqual({ a: '"x"', b: '{"c":"yes","i":"b","n":2,"s":"v6"}' });
  });

  it("literal values load, including escaped template sequences", async () => {
    const { config } = await loadFiles(files(`{ k = ["x", 1, true, null], t = "lit $\${z} %%{w}" }`));
    expect(config.tasks[0]!.variables).toEqual({ a: '"x"', b: '{"k":["x",1,true,null],"t":"lit $${z} %%{w}"}' });
  });
});
