/**
 * @module How `condition "schedule"` looks in CTS's HTTP API: CTS's request schema (`cron`
 * required, non-empty) and its representation `{ cron }`.
 */
import type { BlockApiFace } from "../../../core/plugin-api/mod.ts";

export const scheduleConditionApi: BlockApiFace = Object.freeze({
  requestSchema: {
    type: "object",
    additionalProperties: false,
    required: ["cron"],
    properties: { cron: { type: "string", minLength: 1 } },
  },
  represent: (block: Readonly<Record<string, unknown>>) => ({ cron: typeof block.cron === "string" ? block.cron : "" }),
});
