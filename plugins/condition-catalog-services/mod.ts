/** @module Built-in plugin: CTS's `condition "catalog-services"` (service names in the catalog). */
import { conditionRegistryToken, definePlugin } from "../../core/plugin-api/mod.ts";
import { catalogServicesConditionFactory } from "./src/catalog-services-condition.ts";

export { catalogServicesConditionFactory };

export default definePlugin({
  id: "condition-catalog-services",
  kind: "condition",
  description: "condition \"catalog-services\": runs a task when matching service names are registered or removed",
  deps: { conditions: conditionRegistryToken },
  init({ conditions }) {
    conditions.register(catalogServicesConditionFactory);
  },
});
