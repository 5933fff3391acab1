/** @module The `condition "schedule"` factory: runs a task on a cron schedule, ignoring buffer periods. */
import type { ConditionFactory, JsonSchema, OptionsOf } from "../../../core/plugin-api/mod.ts";
import { cronProblem } from "./cron-expression.ts";
import { scheduleConditionApi } from "./schedule-api.ts";
import { ScheduleSource } from "./schedule-source.ts";

export const scheduleConditionSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cron"],
  properties: { cron: { type: "string", minLength: 1 } },
} as const satisfies JsonSchema;

export type ScheduleBlock = OptionsOf<typeof scheduleConditionSchema>;

// Typed by its schema (`satisfies`): every hook reads the block as the kernel decoded it.
export const scheduleConditionFactory: ConditionFactory = Object.freeze({
  name: "schedule",
  optionsSchema: scheduleConditionSchema,
  api: scheduleConditionApi,
  unbuffered: true,
  // A schedule only triggers; it renders no variable.
  publishesFor: () => undefined,
  validate(options: ScheduleBlock) {
    const why = cronProblem(options.cron);
    return why === undefined ? [] : [{ path: "cron", message: `is not a valid cron expression: ${why}` }];
  },
  // The kernel ran `validate` on this block before: `cron` is set and parses.
  create: (options: ScheduleBlock, taskName: string) => new ScheduleSource(options.cron, taskName),
} satisfies ConditionFactory<ScheduleBlock>);
