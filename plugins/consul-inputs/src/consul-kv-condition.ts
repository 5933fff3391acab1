/** @module The `condition "consul-kv"` factory: runs a task when watched keys are created, changed or deleted. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { ConsulKvSource } from "./consul-kv-source.ts";
import { consulKvConditionApi } from "./cts-api-faces.ts";
import { conditionRenames, consulKvConditionSchema, readConsulKvOptions, useAsModuleInput } from "./input-options.ts";
import { consulKvTemplate } from "./tfvars-template-text.ts";

export const consulKvConditionFactory: ConditionFactory = Object.freeze({
  name: "consul-kv",
  publishes: "consul_kv",
  publishesFor: (options: Readonly<Record<string, unknown>>) => useAsModuleInput(options) ? "consul_kv" : undefined,
  renamedFields: conditionRenames,
  optionsSchema: consulKvConditionSchema,
  api: consulKvConditionApi,
  template: (options: Readonly<Record<string, unknown>>) => consulKvTemplate(options, useAsModuleInput(options)),
  create(config: Readonly<Record<string, unknown>>, taskName: string) {
    return new ConsulKvSource(readConsulKvOptions(config, `task "${taskName}" condition "consul-kv"`), true);
  },
});
