/** Issue 24 item 6: the contract's guards on input text (nesting depth, quoted values, workspace names, Go's longest duration). */
import { describe, expect, it } from "vitest";
import { cutText, parseGoDuration, quoteValue, tooDeep, workspaceNameProblems } from "../../../core/plugin-api/mod.ts";

describe("tooDeep", () => {
  it("finds the line and column where a text nests past the limit", () => {
    expect(tooDeep(`a = {\n  b = [[[1]]]\n}`, true, 3)).toEqual({ line: 2, column: 9 });
    expect(tooDeep(`a = {\n  b = [[1]]\n}`, true, 3)).toBeUndefined();
  });

  it("skips strings, comments and heredocs in HCL", () => {
    const text = [
      'a = "[[[[[[{{{{ \\" [[[["',
      "# [[[[[[[[",
      "// {{{{{{{{",
      "/* [[[[[[[[",
      "   ]]]] */",
      "b = <<EOT",
      "[[[[[[[[[[",
      "EOT",
      "c = [[[[1]]]]",
    ].join("\n");
    expect(tooDeep(text, true, 3)).toEqual({ line: 9, column: 8 });
  });

  it("reads JSON without HCL's comments", () => {
    expect(tooDeep('{"a": "# [[[[", "b": [[[[1]]]]}', false, 3)).toEqual({ line: 1, column: 24 });
  });
});

describe("quoting values in messages", () => {
  it("keeps short values whole and cuts long ones, saying how long they were", () => {
    expect(quoteValue("web")).toBe('"web"');
    expect(quoteValue(12)).toBe("12");
    expect(quoteValue("x".repeat(100), 4)).toBe('"xxxx…" (100 characters)');
    expect(cutText("y".repeat(10), 3)).toBe("yyy… (10 characters)");
  });
});

describe("Terraform workspace names", () => {
  it("takes ASCII letters, digits, _ and -; names any other", () => {
    expect(workspaceNameProblems("web_task-2")).toEqual([]);
    expect(workspaceNameProblems("wéb")).toEqual([{ path: "name", message: expect.stringContaining('"wéb" cannot name a Terraform workspace') }]);
  });
});

describe("Go durations", () => {
  it("refuses what Go's time.ParseDuration cannot hold", () => {
    expect(parseGoDuration("2562047h")).toBe(2562047 * 3_600_000);
    expect(parseGoDuration("2562048h")).toBeUndefined();
    expect(parseGoDuration("99999999999999999999h")).toBeUndefined();
  });
});
