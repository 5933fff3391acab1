/** Every generated file (all golden variants, and random values) is `terraform fmt`-clean. */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { encodeHclValue } from "../../../plugins/driver-terraform/src/hcl-value.ts";
import { inferHclType } from "../../../plugins/driver-terraform/src/hcl-type.ts";
import { randomValue, seededRandom } from "./random-values.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";

const env = terraformTestEnv();
const dir = tempDir("fmt");
afterAll(() => dir.remove());

test("the golden files pass terraform fmt -check, terraform.tfvars up to CTS's unaligned entries", () => {
  const copy = join(dir.path, "golden");
  cpSync(join(import.meta.dirname, "golden"), copy, { recursive: true });
  execFileSync("terraform", ["fmt", "-recursive", copy], { env, stdio: "pipe" });
  const files = readdirSync(copy, { recursive: true, encoding: "utf8" }).filter((file) => /\.(tf|tfvars)$/.test(file));
  expect(files.length).toBeGreaterThan(20);
  for (const file of files) {
    const written = readFileSync(join(import.meta.dirname, "golden", file), "utf8");
    const formatted = readFileSync(join(copy, file), "utf8");
    // CTS renders catalog_services and consul_kv entries one `"key" = value` a line, unaligned.
    const unaligned = (text: string) => file.endsWith("terraform.tfvars") ? text.replace(/^(  "[^\n]*?") +=/gm, "$1 =") : text;
    expect(unaligned(formatted), file).toBe(written);
  }
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
