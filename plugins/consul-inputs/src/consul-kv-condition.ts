/** @module The `condition "consul-kv"` factory: runs a task when watched keys are created, changed or deleted. */
import type { ConditionFactory } from "../../../core/plugin-api/mod.ts";
import { ConsulKvSource } from "./consul-kv-source.ts";
import { consulKvConditionApi } from "./cts-api-faces.ts";
import {
  conditionRenames, consulKvConditionSchema, readConsulKvOptions, useAsModuleInput, type ConsulKvConditionBlock,
} from "./input-options.ts";
import { consulKvTemplate } from "./tfvars-template-text.ts";

// Typed by its schema (`satisfies`); exported as registries see it, so a caller that hands it a
// block directly (a conformance case) need not spell the defaults the kernel fills in.
export const consulKvConditionFactory: ConditionFactory = Object.freeze({
  name: "consul-kv",
  publishes: "consul_kv",
  publishesFor: (options: ConsulKvConditionBlock) => useAsModuleInput(options) ? "consul_kv" : undefined,
  renamedFields: conditionRenames,
  optionsSchema: consulKvConditionSchema,
  api: consulKvConditionApi,
  template: (options: ConsulKvConditionBlock) => consulKvTemplate(options, useAsModuleInput(options)),
  create(config: ConsulKvConditionBlock, taskName: string) {
    return new ConsulKvSource(readConsulKvOptions(config, `task "${taskName}" condition "consul-kv"`), true);
  },
} satisfies ConditionFactory<ConsulKvConditionBlock>);
