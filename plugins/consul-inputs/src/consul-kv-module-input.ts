/** @module The `module_input "consul-kv"` factory: KV data for the task, never a trigger. */
import type { ModuleInputFactory } from "../../../core/plugin-api/mod.ts";
import { ConsulKvSource } from "./consul-kv-source.ts";
import { consulKvModuleInputSchema, readConsulKvOptions } from "./input-options.ts";
import { consulKvModuleInputApi } from "./cts-api-faces.ts";
import { consulKvTemplate } from "./tfvars-template-text.ts";

export const consulKvModuleInputFactory: ModuleInputFactory = Object.freeze({
  name: "consul-kv",
  publishes: "consul_kv",
  publishesFor: () => "consul_kv",
  optionsSchema: consulKvModuleInputSchema,
  api: consulKvModuleInputApi,
  template: (options: Readonly<Record<string, unknown>>) => consulKvTemplate(options, true),
  create(config: Readonly<Record<string, unknown>>, taskName: string) {
    const options = readConsulKvOptions(config, `task "${taskName}" module_input "consul-kv"`);
    return new ConsulKvSource({ ...options, render: true }, false);
  },
});
