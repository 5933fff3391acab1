/**
 * Type tests for the task engine's options (issue 27 item 1): their types are inferred from the
 * schemas the kernel checks and defaults, so a field added to a schema without a use, or a use of
 * a field the schema lacks, fails `npx tsc -p . --noEmit`. Beyond CTS: nothing here pins a CTS behaviour.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { DriftDetectionConfig } from "../../../core/plugin-api/mod.ts";
import type { DriftDefaults } from "../../../plugins/task-engine/src/drift-settings.ts";
import { engineOptionsSchema, type EngineOptions } from "../../../plugins/task-engine/src/engine-options.ts";
import { retryPolicyOf, type RetryOptions } from "../../../plugins/task-engine/src/retry-policy.ts";
import type { RunHistoryOptions } from "../../../plugins/task-engine/src/run-history-options.ts";

describe("the task engine's options are typed by their schemas", () => {
  it("has exactly the schema's fields, and a schema default makes a field always present", () => {
    expectTypeOf<keyof EngineOptions>().toEqualTypeOf<keyof typeof engineOptionsSchema.properties>();
    expectTypeOf<EngineOptions["one_shot_consul_wait"]>().toEqualTypeOf<string>();
    expectTypeOf<RetryOptions>().toEqualTypeOf<{ readonly max_retries: number; readonly backoff: string; readonly max_backoff?: string }>();
    expectTypeOf<RunHistoryOptions>().toEqualTypeOf<
      { readonly max_runs_per_task: number; readonly max_age: string; readonly max_output_bytes: number }
    >();
    // The blocks are optional: the kernel fills in a nested default only when the block is written.
    expectTypeOf<EngineOptions["retry"]>().toEqualTypeOf<RetryOptions | undefined>();
    expect(Object.keys(engineOptionsSchema.properties)).toEqual(["one_shot_consul_wait", "run_history", "drift_detection", "retry"]);
  });

  it("keeps the engine's drift default the shape of a task's drift_detection block, which it underlies field by field", () => {
    expectTypeOf<DriftDefaults>().toMatchTypeOf<DriftDetectionConfig>();
    expectTypeOf<keyof DriftDefaults>().toEqualTypeOf<keyof DriftDetectionConfig>();
  });

  it("reads a defaulted retry block without a fallback of its own", () => {
    expect(retryPolicyOf({ max_retries: 3, backoff: "5s" })).toEqual({ maxRetries: 3, backoffMs: 5_000, maxBackoffMs: 600_000 });
  });
});
