/** @module The `condition "nodes"` and `module_input "nodes"` factories the plugin registers. */
import type { ConditionFactory, ModuleInputFactory } from "@cts-runtime/plugin-api";
import { nodesConditionSchema, nodesModuleInputSchema, readNodesOptions } from "./nodes-options.ts";
import { NodesSource } from "./nodes-source.ts";
import { nodesTemplate } from "./nodes-template.ts";
import { nodesDeclaration, NODES_VARIABLE } from "./nodes-value.ts";

export const nodesConditionFactory: ConditionFactory = Object.freeze({
  name: "nodes",
  publishes: NODES_VARIABLE,
  publishesFor: (block: Readonly<Record<string, unknown>>) => readNodesOptions(block).use_as_module_input ? NODES_VARIABLE : undefined,
  variableDeclaration: nodesDeclaration,
  optionsSchema: nodesConditionSchema,
  template: (block: Readonly<Record<string, unknown>>) => {
    const options = readNodesOptions(block);
    return nodesTemplate(options, options.use_as_module_input);
  },
  create: (block: Readonly<Record<string, unknown>>) => new NodesSource(readNodesOptions(block), true),
});

export const nodesModuleInputFactory: ModuleInputFactory = Object.freeze({
  name: "nodes",
  publishes: NODES_VARIABLE,
  publishesFor: () => NODES_VARIABLE,
  variableDeclaration: nodesDeclaration,
  optionsSchema: nodesModuleInputSchema,
  template: (block: Readonly<Record<string, unknown>>) => nodesTemplate(readNodesOptions(block), true),
  create: (block: Readonly<Record<string, unknown>>) => new NodesSource(readNodesOptions(block), false),
});
