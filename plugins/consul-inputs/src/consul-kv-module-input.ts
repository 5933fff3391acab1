/** @module The `module_input "consul-kv"` factory: KV data for the task, never a trigger. */
import type { ModuleInputFactory } from "../../../core/plugin-api/mod.ts";
import { ConsulKvSource } from "./consul-kv-source.ts";
import { consulKvModuleInputSchema, readConsulKvOptions, type ConsulKvModuleInputBlock } from "./input-options.ts";
import { consulKvModuleInputApi } from "./cts-api-faces.ts";
import { consulKvTemplate } from "./tfvars-template-text.ts";

// Typed by its schema (`satisfies`); exported as registries see it, so a caller that hands it a
// block directly (a conformance case) need not spell the defaults the kernel fills in.
export const consulKvModuleInputFactory: ModuleInputFactory = Object.freeze({
  name: "consul-kv",
  publishes: "consul_kv",
  publishesFor: () => "consul_kv",
  optionsSchema: consulKvModuleInputSchema,
  api: consulKvModuleInputApi,
  template: (options: ConsulKvModuleInputBlock) => consulKvTemplate(options, true),
  create(config: ConsulKvModuleInputBlock, taskName: string) {
    const options = readConsulKvOptions(config, `task "${taskName}" module_input "consul-kv"`);
    return new ConsulKvSource({ ...options, render: true }, false);
  },
} satisfies ModuleInputFactory<ConsulKvModuleInputBlock>);
