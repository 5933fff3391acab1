/**
 * @module Registered factories as the kernel hands them out: each `create` (and a block's
 * `template`, `publishesFor` and `api.represent`, a driver's `verify`) receives its block checked
 * against the factory's own schema, defaults applied and frozen, whoever calls it (the engine, the
 * API's task create and task representation, a testkit). A block the kernel already completed is that same object (decoded once,
 * block-options.ts). A block that does not pass is a clear error naming the task and field, never
 * a half-read object inside the plugin.
 */
import {
  CtsError, type BlockApiFace, type ConditionFactory, type DriverConfig, type DriverFactory, type ModuleInputFactory,
} from "../plugin-api/mod.ts";
import { formatIssue } from "../config/config-error.ts";
import type { BlockOptions, BlockOwner, CheckedBlock } from "./block-options.ts";

type Fields = Readonly<Record<string, unknown>>;
type InputFactory = ConditionFactory | ModuleInputFactory;

function checked(blocks: BlockOptions, owner: BlockOwner, fields: Fields, what: string, path: string, decode = false): Fields {
  const result = blocks.check(owner, fields, "", path, decode);
  if (result.ok) return result.value;
  throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot configure ${what}: ${result.issues.map(formatIssue).join("; ")}`);
}

/**
 * Inherits everything from the registered object (a frozen literal or a class instance alike) and
 * overrides only the methods that take a block.
 */
function derived<T extends object>(factory: T, overrides: Partial<T>): T {
  const wrapper = Object.create(factory) as T;
  for (const [key, value] of Object.entries(overrides)) Object.defineProperty(wrapper, key, { value, enumerable: true });
  return wrapper;
}

/** `kind` is the block keyword: `condition` or `module_input`. */
export function withValidatedInput<T extends InputFactory>(factory: T, kind: string, blocks: BlockOptions): T {
  const create: InputFactory["create"] = (config, taskName, task) =>
    factory.create(checked(blocks, factory, config, `task "${taskName}"`, `${kind}.${factory.name}`, true), taskName, task);
  const overrides: { -readonly [K in keyof InputFactory]?: InputFactory[K] } = { create };
  const block = (config: Fields) => checked(blocks, factory, config, `${kind} "${factory.name}"`, `${kind}.${factory.name}`, true);
  if (factory.template) overrides.template = (config) => factory.template!(block(config));
  if (factory.publishesFor) overrides.publishesFor = (config) => factory.publishesFor!(block(config));
  const api = factory.api;
  if (api?.represent) {
    const represent = (stored: Fields) => representDecoded(api, blocks.check(factory, stored, "", `${kind}.${factory.name}`, true), stored);
    overrides.api = derived(api, { represent });
  }
  return derived(factory, overrides as Partial<T>);
}

/**
 * A stored block (a task record another version may have written) as its owner's `represent` reads
 * every other hook's: decoded. One its owner now refuses cannot be read by the owner's types, so the
 * API shows it as stored, without its label (the API's default representation).
 */
function representDecoded(api: BlockApiFace, decoded: CheckedBlock, stored: Fields): Record<string, unknown> {
  if (decoded.ok) return api.represent!(decoded.value);
  const { type: _label, ...fields } = stored;
  return fields;
}

export function withValidatedDriver(factory: DriverFactory, blocks: BlockOptions): DriverFactory {
  const options = (driver: DriverConfig): DriverConfig => ({
    ...driver,
    options: checked(blocks, factory, driver.options, `driver "${factory.name}"`, `driver.${factory.name}`),
  });
  const overrides: Partial<DriverFactory> = {
    create: (task, ctx) => factory.create(task, { ...ctx, driver: options(ctx.driver) }),
  };
  if (factory.verify) overrides.verify = (driver, signal) => factory.verify!(options(driver), signal);
  return derived(factory, overrides);
}
