/** @module The `condition "consul-kv"` factory: runs a task when watched keys are created, changed or deleted. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { ConsulKvSource } from "./consul-kv-source.ts";
import { consulKvConditionApi } from "./cts-api-faces.ts";
import { conditionRenames, consulKvConditionSchema, type ConsulKvConditionBlock } from "./input-options.ts";
import { consulKvTemplate } from "./tfvars-template-text.ts";

// Typed by its schema (`satisfies`): every hook reads the block as the kernel decoded it.
export const consulKvConditionFactory: ConditionFactory = Object.freeze({
  name: "consul-kv",
  publishes: "consul_kv",
  publishesFor: (options: ConsulKvConditionBlock) => options.use_as_module_input ? "consul_kv" : undefined,
  renamedFields: conditionRenames,
  optionsSchema: consulKvConditionSchema,
  api: consulKvConditionApi,
  template: (options: ConsulKvConditionBlock) => consulKvTemplate(options, options.use_as_module_input),
  create: (options: ConsulKvConditionBlock) => new ConsulKvSource(options, options.use_as_module_input, true),
} satisfies ConditionFactory<ConsulKvConditionBlock>);
