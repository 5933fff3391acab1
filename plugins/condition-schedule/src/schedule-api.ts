/**
 * @module How `condition "schedule"` looks in CTS's HTTP API: CTS's request schema (`cron`
 * required, non-empty) and its representation `{ cron }`.
 */
import type { BlockApiFace } from "../../../core/plugin-api/mod.ts";
import type { ScheduleBlock } from "./schedule-condition.ts";

export const scheduleConditionApi: BlockApiFace<ScheduleBlock> = Object.freeze({
  requestSchema: {
    type: "object",
    additionalProperties: false,
    required: ["cron"],
    properties: { cron: { type: "string", minLength: 1 } },
  },
  represent: (block: ScheduleBlock) => ({ cron: block.cron }),
});
