import { describe, expect, test } from "vitest";
import { MAX_TASK_NAME_LENGTH, validateTaskName } from "../../../core/config/validate-task-name.ts";

describe("validateTaskName", () => {
  test.each(["web", "_x", "web-services_2", "a", "Ünïcode", "x".repeat(MAX_TASK_NAME_LENGTH)])("%j is valid", (name) => {
    expect(validateTaskName(name)).toBeUndefined();
  });

  test.each([
    ["../x", "not valid"], ["a/b", "not valid"], ["a\\b", "not valid"], [".", "not valid"], ["..", "not valid"],
    ["", "must not be empty"], ["x".repeat(MAX_TASK_NAME_LENGTH + 1), "at most 128"], ["a\u0000b", "not valid"],
    ["a\nb", "not valid"], ["tab\there", "not valid"], ["\u007f", "not valid"], ["1abc", "not valid"],
    ["-abc", "not valid"], ["with space", "not valid"], ["a.b", "not valid"], ["a%2fb", "not valid"],
  ])("%j is rejected (%s)", (name, fragment) => {
    expect(validateTaskName(name)).toContain(fragment);
  });

  test("non-strings are rejected", () => {
    expect(validateTaskName(42)).toBe("task name must be a string");
    expect(validateTaskName(undefined)).toBe("task name must be a string");
  });
});
