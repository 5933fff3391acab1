/** Every generated file (all golden variants, and random values) is `terraform fmt`-clean. */
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { encodeHclValue } from "../../../plugins/driver-terraform/src/hcl-value.ts";
import { inferHclType } from "../../../plugins/driver-terraform/src/hcl-type.ts";
import { randomValue, seededRandom } from "./random-values.ts";
import { tempDir, terraformTestEnv } from "./terraform-env.ts";

const env = terraformTestEnv();
const dir = tempDir("fmt");
afterAll(() => dir.remove());

test("the golden files pass terraform fmt -check", () => {
  const result = spawnSync("terraform", ["fmt", "-check", "-diff", "-recursive", join(import.meta.dirname, "golden")], {
    env, encoding: "utf8",
  });
  expect(result.stdout + result.stderr.replace(/.*CLI configuration[\s\S]*?╵\n?/g, "")).toBe("");
  expect(result.status).toBe(0);
});

test("random nested values encode fmt-clean, with their inferred types", () => {
  const random = seededRandom(7);
  const lines: string[] = [];
  const types: string[] = [];
  for (let i = 0; i < 60; i++) {
    const value = randomValue(random, 4);
    lines.push(`v${i} = ${encodeHclValue(value, 0)}\n`);
    types.push(`variable "v${i}" {\n  type = ${inferHclType(value, 2)}\n}\n`);
  }
  writeFileSync(join(dir.path, "values.tfvars"), lines.join("\n"));
  writeFileSync(join(dir.path, "types.tf"), types.join("\n"));
  const diff = spawnSync("terraform", ["fmt", "-check", "-diff", dir.path], { env, encoding: "utf8" });
  expect(diff.stdout).toBe("");
  expect(diff.status).toBe(0);
  // And the type expressions are valid Terraform.
  execFileSync("terraform", ["validate", "-no-color"], { cwd: dir.path, env, stdio: "pipe" });
});
