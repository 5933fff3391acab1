/** @module The `condition "nodes"` and `module_input "nodes"` factories the plugin registers. */
import type { ConditionFactory, ModuleInputFactory } from "@cts-runtime/plugin-api";
import { nodesConditionSchema, nodesModuleInputSchema, type NodesModuleInputOptions, type NodesOptions } from "./nodes-options.ts";
import { NodesSource } from "./nodes-source.ts";
import { nodesTemplate } from "./nodes-template.ts";
import { nodesDeclaration, NODES_VARIABLE } from "./nodes-value.ts";

export const nodesConditionFactory: ConditionFactory<NodesOptions> = Object.freeze({
  name: "nodes",
  publishes: NODES_VARIABLE,
  publishesFor: (options: NodesOptions) => options.use_as_module_input ? NODES_VARIABLE : undefined,
  variableDeclaration: nodesDeclaration,
  optionsSchema: nodesConditionSchema,
  template: (options: NodesOptions) => nodesTemplate(options, options.use_as_module_input),
  create: (options: NodesOptions) => new NodesSource(options, options.use_as_module_input, true),
});

export const nodesModuleInputFactory: ModuleInputFactory<NodesModuleInputOptions> = Object.freeze({
  name: "nodes",
  publishes: NODES_VARIABLE,
  publishesFor: () => NODES_VARIABLE,
  variableDeclaration: nodesDeclaration,
  optionsSchema: nodesModuleInputSchema,
  template: (options: NodesModuleInputOptions) => nodesTemplate(options, true),
  create: (options: NodesModuleInputOptions) => new NodesSource(options, true, false),
});
