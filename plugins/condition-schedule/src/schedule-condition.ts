/** @module The `condition "schedule"` factory: runs a task on a cron schedule, ignoring buffer periods. */
import type { ConditionFactory, JsonSchema } from "../../../core/plugin-api/mod.ts";
import { CtsError } from "../../../core/plugin-api/mod.ts";
import { cronProblem, parseCron } from "./cron-expression.ts";
import { scheduleConditionApi } from "./schedule-api.ts";
import { ScheduleSource } from "./schedule-source.ts";

export const scheduleConditionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cron"],
  properties: { cron: { type: "string", minLength: 1 } },
};

export const scheduleConditionFactory: ConditionFactory = Object.freeze({
  name: "schedule",
  optionsSchema: scheduleConditionSchema,
  api: scheduleConditionApi,
  unbuffered: true,
  // A schedule only triggers; it renders no variable.
  publishesFor: () => undefined,
  validate(options: Readonly<Record<string, unknown>>) {
    const why = cronProblem(String(options.cron));
    return why === undefined ? [] : [{ path: "cron", message: `is not a valid cron expression: ${why}` }];
  },
  create(config: Readonly<Record<string, unknown>>, taskName: string) {
    const cron = config.cron;
    if (typeof cron !== "string" || cron.trim() === "") {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot configure task "${taskName}" condition "schedule": cron is required`);
    }
    parseCron(cron).stop();
    return new ScheduleSource(cron, taskName);
  },
});
