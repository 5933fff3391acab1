/** @module The `module_input "consul-kv"` factory: KV data for the task, never a trigger. */
import type { ModuleInputFactory } from "../../../core/plugin-api/mod.ts";
import { ConsulKvSource } from "./consul-kv-source.ts";
import { consulKvModuleInputSchema, type ConsulKvModuleInputBlock } from "./input-options.ts";
import { consulKvModuleInputApi } from "./cts-api-faces.ts";
import { consulKvTemplate } from "./tfvars-template-text.ts";

// Typed by its schema (`satisfies`): every hook reads the block as the kernel decoded it.
export const consulKvModuleInputFactory: ModuleInputFactory = Object.freeze({
  name: "consul-kv",
  publishes: "consul_kv",
  publishesFor: () => "consul_kv",
  optionsSchema: consulKvModuleInputSchema,
  api: consulKvModuleInputApi,
  template: (options: ConsulKvModuleInputBlock) => consulKvTemplate(options, true),
  create: (options: ConsulKvModuleInputBlock) => new ConsulKvSource(options, true, false),
} satisfies ModuleInputFactory<ConsulKvModuleInputBlock>);
