/**
 * @module Fields CTS removed from `driver "terraform" {}` that old configs still carry. They stay in
 * the schema so the refusal can say what to write instead of only "unknown field".
 */
import type { BlockProblem } from "../../../core/plugin-api/mod.ts";

export function removedFieldProblems(options: Readonly<Record<string, unknown>>): BlockProblem[] {
  if (options.working_dir === undefined) return [];
  return [{
    path: "working_dir",
    message: "was removed in CTS 0.5 and is refused as CTS refuses it: set the top-level working_dir " +
      "(each task then works in <working_dir>/<task name>) or the task's working_dir",
  }];
}
