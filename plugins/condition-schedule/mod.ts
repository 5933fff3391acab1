/** @module Built-in plugin: CTS's `condition "schedule"` (cron; no Consul data, no buffer period). */
import { conditionRegistryToken, definePlugin } from "../../core/plugin-api/mod.ts";
import { parseCron, toCronerPattern } from "./src/cron-expression.ts";
import { scheduleConditionFactory } from "./src/schedule-condition.ts";

export { parseCron, scheduleConditionFactory, toCronerPattern };

export default definePlugin({
  id: "condition-schedule",
  kind: "condition",
  description: "condition \"schedule\": runs a task at the times of a cron expression",
  deps: { conditions: conditionRegistryToken },
  init({ conditions }) {
    conditions.register(scheduleConditionFactory);
  },
});
