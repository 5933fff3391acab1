/** @module Built-in plugin: CTS's `condition "services"` (health of named or regexp-matched services). */
import { conditionRegistryToken, definePlugin } from "../../core/plugin-api/mod.ts";
import { servicesConditionFactory } from "./src/services-condition.ts";

export { servicesConditionFactory };

export default definePlugin({
  id: "condition-services",
  kind: "condition",
  description: "condition \"services\": runs a task when the instances it selects change",
  deps: { conditions: conditionRegistryToken },
  init({ conditions }) {
    conditions.register(servicesConditionFactory);
  },
});
