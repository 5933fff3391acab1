/**
 * Escaping round-trip: values encoded by hcl-value.ts, read by the real Terraform (tfvars →
 * variable → output), come back exactly. Strings are NFC-normalised first because HCL itself
 * normalises every string it reads (see hcl-value.ts).
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { encodeHclValue } from "../../../plugins/driver-terraform/src/hcl-value.ts";
import { randomValue, seededRandom } from "./random-values.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";

const env = terraformTestEnv();
const dir = tempDir("roundtrip");
afterAll(() => dir.remove());

function nfc(value: unknown): unknown {
  if (typeof value === "string") return value.normalize("NFC");
  if (Array.isArray(value)) return value.map(nfc);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.normalize("NFC"), nfc(v)]));
  }
  return value;
}

const controls = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join("") + "\u007f\u0080\u009f";

const fixed: Record<string, unknown> = {
  quotes: `say "hi" and 'bye'`,
  backslashes: "C:\\path\\to\\file \\n is not a newline \\\\",
  templates: "${var.x} %{if true} $${x} %%{y} $$ $ % {} $${ ${ $$${ %%%{",
  trailing_dollar: "cost: 5$",
  whitespace: "line1\nline2\r\nline3\ttabbed\u000b\f",
  controls,
  astral: "😀 𝄞 👍🏽 \u{10FFFF} \u{1F1FA}\u{1F1F8}",
  bmp: "é ß 中文 \u00a0 \u2028 \u2029 \ufeff",
  "key with \"quotes\" and ${x}": "k",
  "é.node1.dc1": { nested: ["a", "\n", "${}"] },
  numbers: [0, -1, 1.5, 123456789, -0.001, 1e21],
  bools: [true, false],
  empty: { list: [], object: {}, string: "" },
};

test("encoded values come back from terraform output exactly", () => {
  const random = seededRandom(42);
  const values: Record<string, unknown> = { fixed };
  for (let i = 0; i < 40; i++) values[`random_${i}`] = { value: randomValue(random, 3) };
  writeFileSync(join(dir.path, "main.tf"), 'variable "x" {\n  type = any\n}\n\noutput "x" {\n  value = var.x\n}\n');
  writeFileSync(join(dir.path, "terraform.tfvars"), `x = ${encodeHclValue(values, 0)}\n`);
  const opts = { cwd: dir.path, env, stdio: "pipe" as const };
  execFileSync("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], opts);
  const output = JSON.parse(execFileSync("terraform", ["output", "-json", "x"], { ...opts, encoding: "utf8" }));
  expect(output.fixed).toEqual(nfc(fixed));
  expect(output).toEqual(nfc(values));
});
