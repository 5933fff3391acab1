import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readVariableFiles, toExpression } from "../../../core/config/variable-files.ts";

describe("variable_files → HCL expressions", () => {
  it("keeps HCL template escapes as written", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "varfiles-"));
    await writeFile(
      path.join(dir, "a.tfvars"),
      'literal = "lit $${z}"\nquoted = "say \\"hi\\"\\n"\nlist = ["p", "$${q}"]\n',
    );
    const variables = await readVariableFiles(["a.tfvars"], dir);
    // Each value is the expression Terraform reads back as the user's value: `lit ${z}`, not `lit $${z}`.
    expect(variables).toEqual({
      literal: '"lit $${z}"',
      quoted: '"say \\"hi\\"\\n"',
      list: '["p","$${q}"]',
    });
  });

  it("escapes ${ and %{ in JSON tfvars, whose strings are literals", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "varfiles-"));
    await writeFile(path.join(dir, "b.tfvars.json"), JSON.stringify({ s: "a ${b} %{c}", nested: { k: ["${d}"] }, n: 3 }));
    expect(await readVariableFiles(["b.tfvars.json"], dir)).toEqual({
      s: '"a $${b} %%{c}"',
      nested: '{"k":["$${d}"]}',
      n: "3",
    });
  });

  it("lets a later file override an earlier key", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "varfiles-"));
    await writeFile(path.join(dir, "1.tfvars"), 'x = "one"\ny = 1\n');
    await writeFile(path.join(dir, "2.tfvars"), 'x = "two"\n');
    expect(await readVariableFiles(["1.tfvars", "2.tfvars"], dir)).toEqual({ x: '"two"', y: "1" });
  });

  it("returns a bare expression only for a whole-value interpolation", () => {
    expect(toExpression("${var.x}", "hcl")).toBe("var.x");
    expect(toExpression("${a}-${b}", "hcl")).toBe('"${a}-${b}"');
    expect(toExpression("${var.x}", "json")).toBe('"$${var.x}"');
  });
});
