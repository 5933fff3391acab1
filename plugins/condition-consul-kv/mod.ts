/** @module Built-in plugin: CTS's `condition "consul-kv"` (one key or a prefix). */
import { conditionRegistryToken, definePlugin } from "../../core/plugin-api/mod.ts";
import { consulKvConditionFactory } from "./src/consul-kv-condition.ts";

export { consulKvConditionFactory };

export default definePlugin({
  id: "condition-consul-kv",
  kind: "condition",
  description: "condition \"consul-kv\": runs a task when a key, or any key under a prefix, changes",
  deps: { conditions: conditionRegistryToken },
  init({ conditions }) {
    conditions.register(consulKvConditionFactory);
  },
});
