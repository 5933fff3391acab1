/**
 * CTS parses its config with HCL 1, where an attribute set twice in one body takes the later value:
 * CTS's e2e TestModuleInput_Basic_CatalogServicesCondition ("multiple") writes a task with `module`
 * twice and expects the second module to run. HCL 2 rejects that; we keep the later value.
 */
import { describe, expect, it } from "vitest";
import { parseConfigText } from "../../../core/config/parse-config-file.ts";

describe("an attribute set twice (HCL 1: the later one wins)", () => {
  it("keeps the later value of a redefined attribute, single- or multi-line, in any block", async () => {
    const parsed = await parseConfigText("cts.hcl", `task {
  name   = "t"
  module = "./first"
  providers = [
    "a",
    "b",
  ]
  description = <<EOT
first } ]
EOT
  module_input "services" {
    names = ["api"]
  }
  module = "./second" # the one CTS runs
  providers = ["c"]
  description = "second"
}
`);
    expect(parsed.ok).toBe(true);
    const task = (parsed as unknown as { value: { task: Record<string, unknown>[] } }).value.task[0]!;
    expect(task).toMatchObject({ name: "t", module: "./second", providers: ["c"], description: "second" });
    expect(task.module_input).toBeDefined();
  });

  it("still reports other HCL errors at their place in the file as written", async () => {
    const parsed = await parseConfigText("cts.hcl", `task {\n  module = "a"\n  module = "b"\n  name = \n}\n`);
    expect(parsed.ok).toBe(false);
    expect((parsed as unknown as { issue: { message: string } }).issue.message).toMatch(/^invalid HCL: line 4,/);
  });
});
