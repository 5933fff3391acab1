/** @module The `condition "nodes"` and `module_input "nodes"` factories the plugin registers. */
import type { ConditionFactory, ModuleInputFactory } from "@cts-runtime/plugin-api";
import {
  nodesConditionSchema, nodesModuleInputSchema, readNodesOptions, type NodesModuleInputOptions, type NodesOptions,
} from "./nodes-options.ts";
import { NodesSource } from "./nodes-source.ts";
import { nodesTemplate } from "./nodes-template.ts";
import { nodesDeclaration, NODES_VARIABLE } from "./nodes-value.ts";

export const nodesConditionFactory: ConditionFactory<NodesOptions> = Object.freeze({
  name: "nodes",
  publishes: NODES_VARIABLE,
  publishesFor: (block: NodesOptions) => readNodesOptions(block).use_as_module_input ? NODES_VARIABLE : undefined,
  variableDeclaration: nodesDeclaration,
  optionsSchema: nodesConditionSchema,
  template: (block: NodesOptions) => {
    const options = readNodesOptions(block);
    return nodesTemplate(options, options.use_as_module_input);
  },
  create: (block: NodesOptions) => new NodesSource(readNodesOptions(block), true),
});

export const nodesModuleInputFactory: ModuleInputFactory<NodesModuleInputOptions> = Object.freeze({
  name: "nodes",
  publishes: NODES_VARIABLE,
  publishesFor: () => NODES_VARIABLE,
  variableDeclaration: nodesDeclaration,
  optionsSchema: nodesModuleInputSchema,
  template: (block: NodesModuleInputOptions) => nodesTemplate(readNodesOptions(block), true),
  create: (block: NodesModuleInputOptions) => new NodesSource(readNodesOptions(block), false),
});
