/**
 * Ten broken configs: the real CLI (`start` and `validate`, on Node and on Deno) rejects each with
 * exit 15 before anything starts, naming the file and the field.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli, type Runtime } from "../../harness/run-cli.ts";

const fixtures = path.join(repoRoot, "test", "fixtures", "configs");
const { cases } = JSON.parse(readFileSync(path.join(fixtures, "broken-expected.json"), "utf8")) as {
  cases: { file: string; path: string; message: string }[];
};

describe("broken configs are rejected by the real CLI", () => {
  it("has the ten cases the foundation issue names", () => {
    expect(cases).toHaveLength(10);
  });

  for (const brokenCase of cases) {
    const file = path.join("test", "fixtures", "configs", "broken", brokenCase.file);
    const expectedLine = `${file}: ${brokenCase.path ? `${brokenCase.path}: ` : ""}${brokenCase.message}`;
    for (const [runtime, command] of [["node", "start"], ["deno", "validate"]] as [Runtime, string][]) {
      it(`${brokenCase.file}: ${command} on ${runtime} exits 15 naming file and field`, async () => {
        const result = await runCli(runtime, [command, `-config-file=${file}`]);
        expect(result.code, result.stderr).toBe(15);
        expect(result.stderr).toContain(expectedLine);
        expect(result.stdout).toBe("");
      });
    }
  }
});
