/**
 * @module Loads every plugin a run needs — built-ins, plugins passed in by the caller, and
 * third-party plugins named in the config — and checks each is a definition this kernel can run.
 *
 * A `plugin "<name>" {}` block with a `source` loads a third-party package (npm name or path).
 * A block without one (or with `source = "builtin:<id>"`) configures the options of a plugin the
 * kernel already has, by id; naming a built-in this way also loads it when its `when` says no.
 */
import {
  CtsError, errorMessage, type CtsConfig, type FileSystem, type PluginDefinition, type PluginReferenceConfig,
  type RunOptions,
} from "../plugin-api/mod.ts";
import type { BuiltinPlugin } from "./builtin-plugins.ts";
import { assertPluginDefinition, unwrapDefault } from "./plugin-definition-check.ts";
import { importSpecifierFor } from "./plugin-source.ts";

export interface LoadedPlugin {
  readonly definition: PluginDefinition;
  /** Where it came from: `builtin:<id>`, `inline:<id>` (passed in), or the block's `source`. */
  readonly source: string;
  /** The name logs use for it: the block label for third-party plugins, else the id. */
  readonly name: string;
  /** Options as configured, not yet validated (`{}` when not configured). */
  readonly options: Readonly<Record<string, unknown>>;
}

export interface LoadPluginsOptions {
  readonly config: CtsConfig;
  readonly runOptions: RunOptions;
  readonly builtins: readonly BuiltinPlugin[];
  /** Plugins passed in by the caller (tests add recording drivers this way). */
  readonly extra?: readonly PluginDefinition[];
  /** Directory that relative plugin paths are resolved against. */
  readonly baseDir: string;
  readonly fileSystem: FileSystem;
}

const BUILTIN_PREFIX = "builtin:";

/** Loads in declaration order (built-ins, passed-in, config) — the order that breaks start-order ties. */
export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadedPlugin[]> {
  const { config, runOptions, builtins } = options;
  const configuring = new Map<string, PluginReferenceConfig>();
  const thirdParty: PluginReferenceConfig[] = [];
  for (const block of config.plugins) {
    const source = block.source ?? "";
    if (source === "" || source.startsWith(BUILTIN_PREFIX)) {
      configuring.set(source === "" ? block.name : source.slice(BUILTIN_PREFIX.length), block);
    } else {
      thirdParty.push(block);
    }
  }

  const known = new Set([...builtins.map((b) => b.id), ...(options.extra ?? []).map((p) => p.id)]);
  for (const [id, block] of configuring) {
    if (!known.has(id)) {
      throw new CtsError(
        "CTS_ERR_PLUGIN_LOAD",
        `Cannot configure plugin "${block.name}": no built-in plugin has the id "${id}" (give a source to load a package)`,
      );
    }
  }

  const wanted = builtins.filter((b) => configuring.has(b.id) || (b.when?.(config, runOptions) ?? true));
  // One plugin at a time: each import reads its module graph with as many files open at once as
  // the runtime likes, and all plugins at once opened more than a daemon under `ulimit -n 100` has.
  const loaders: (() => Promise<LoadedPlugin>)[] = [
    ...wanted.map((builtin) => async (): Promise<LoadedPlugin> => {
      const origin = `"${builtin.id}" (built-in)`;
      const definition = assertPluginDefinition(unwrapDefault(await importOrThrow(builtin.load, origin)), origin);
      if (definition.id !== builtin.id) {
        throw new CtsError("CTS_ERR_PLUGIN_INVALID", `Cannot load plugin ${origin}: its definition says id "${definition.id}"`);
      }
      return { definition, source: `${BUILTIN_PREFIX}${builtin.id}`, name: builtin.id, options: configuring.get(builtin.id)?.options ?? {} };
    }),
    ...(options.extra ?? []).map((plugin) => async (): Promise<LoadedPlugin> => {
      const definition = assertPluginDefinition(plugin, `"${String(plugin?.id)}" (passed in)`);
      return { definition, source: `inline:${definition.id}`, name: definition.id, options: configuring.get(definition.id)?.options ?? {} };
    }),
    ...thirdParty.map((block) => async (): Promise<LoadedPlugin> => {
      const origin = `"${block.name}" from "${block.source}"`;
      const specifier = await importSpecifierFor(block.source, options.baseDir, options.fileSystem);
      const module = await importOrThrow(() => import(specifier), origin);
      return { definition: assertPluginDefinition(unwrapDefault(module), origin), source: block.source, name: block.name, options: block.options ?? {} };
    }),
  ];
  const loaded: LoadedPlugin[] = [];
  for (const load of loaders) loaded.push(await load());
  const kept = withoutReplacedBuiltins(loaded, builtins);
  assertUniqueIds(kept);
  return kept;
}

/** A replaceable built-in gives way to a third-party package with its id (the package is its published form). */
function withoutReplacedBuiltins(plugins: readonly LoadedPlugin[], builtins: readonly BuiltinPlugin[]): LoadedPlugin[] {
  const replaceable = new Set(builtins.filter((builtin) => builtin.replaceable).map((builtin) => `${BUILTIN_PREFIX}${builtin.id}`));
  const thirdPartyIds = new Set(plugins.filter((plugin) => isThirdParty(plugin)).map((plugin) => plugin.definition.id));
  return plugins.filter((plugin) => !(replaceable.has(plugin.source) && thirdPartyIds.has(plugin.definition.id)));
}

function isThirdParty(plugin: LoadedPlugin): boolean {
  return !plugin.source.startsWith(BUILTIN_PREFIX) && !plugin.source.startsWith("inline:");
}

async function importOrThrow(load: () => Promise<unknown>, origin: string): Promise<unknown> {
  try {
    return await load();
  } catch (error) {
    throw new CtsError("CTS_ERR_PLUGIN_LOAD", `Cannot load plugin ${origin}: ${errorMessage(error)}`, { cause: error });
  }
}

function assertUniqueIds(plugins: readonly LoadedPlugin[]): void {
  const seen = new Map<string, LoadedPlugin>();
  for (const plugin of plugins) {
    const earlier = seen.get(plugin.definition.id);
    if (earlier) {
      throw new CtsError(
        "CTS_ERR_PLUGIN_INVALID",
        `Cannot load plugin "${plugin.name}" from "${plugin.source}": id "${plugin.definition.id}" is already used by "${earlier.source}"`,
      );
    }
    seen.set(plugin.definition.id, plugin);
  }
}
