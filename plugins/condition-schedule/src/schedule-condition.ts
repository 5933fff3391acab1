/** @module The `condition "schedule"` factory: runs a task on a cron schedule, ignoring buffer periods. */
import type { ConditionFactory, JsonSchema, OptionsOf } from "../../../core/plugin-api/mod.ts";
import { CtsError } from "../../../core/plugin-api/mod.ts";
import { cronProblem, parseCron } from "./cron-expression.ts";
import { scheduleConditionApi } from "./schedule-api.ts";
import { ScheduleSource } from "./schedule-source.ts";

export const scheduleConditionSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cron"],
  properties: { cron: { type: "string", minLength: 1 } },
} as const satisfies JsonSchema;

type ScheduleBlock = OptionsOf<typeof scheduleConditionSchema>;

// Typed by its schema (`satisfies`); exported as registries see it (see consul-inputs' factories).
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
  create(config: ScheduleBlock, taskName: string) {
    const cron = config.cron;
    if (typeof cron !== "string" || cron.trim() === "") {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot configure task "${taskName}" condition "schedule": cron is required`);
    }
    parseCron(cron).stop();
    return new ScheduleSource(cron, taskName);
  },
} satisfies ConditionFactory<ScheduleBlock>);
