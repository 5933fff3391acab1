/**
 * @module The `nodes` plugin: `condition "nodes"` runs a task when Consul catalog nodes join, leave
 * or change; `module_input "nodes"` hands the same list to a task another condition runs. Written as
 * a third party writes a plugin (it imports only `@cts-runtime/plugin-api`), shipped with cts-runtime
 * as a built-in and publishable unchanged as the package `@example/cts-condition-nodes`.
 */
import { conditionRegistryToken, definePlugin, moduleInputRegistryToken } from "@cts-runtime/plugin-api";
import { nodesConditionFactory, nodesModuleInputFactory } from "./src/nodes-factories.ts";

export { nodesConditionFactory, nodesModuleInputFactory } from "./src/nodes-factories.ts";
export { nodesQuery } from "./src/nodes-query.ts";
export { nodeEntries, nodesDeclaration, type NodeEntry } from "./src/nodes-value.ts";
export type { NodesOptions } from "./src/nodes-options.ts";

export default definePlugin({
  id: "condition-nodes",
  kind: "condition",
  description: "condition \"nodes\" and module_input \"nodes\": Consul catalog nodes that run tasks and fill their `nodes` variable",
  deps: { conditions: conditionRegistryToken, moduleInputs: moduleInputRegistryToken },
  init({ conditions, moduleInputs }) {
    conditions.register(nodesConditionFactory);
    moduleInputs.register(nodesModuleInputFactory);
  },
});
