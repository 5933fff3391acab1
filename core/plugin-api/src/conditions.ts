/**
 * @module Conditions and module inputs: what a task watches and what data it receives.
 *
 * A condition decides when a task runs; a module input only supplies data. Both are created per
 * task from the task's config and watch Consul through the engine's shared watcher pool, so that
 * every distinct Consul query is watched by exactly one blocking query across all tasks.
 *
 * `create` takes the whole task as an optional third argument, so a source
 * can honour cross-block rules (e.g. a services module input takes `cts_user_defined_meta` from
 * the task's services condition when that sets one). Engines should pass it.
 */
import type { TaskConfig } from "./config.ts";
import type { BlockProblem, JsonSchema } from "./json-schema.ts";
import type { Named } from "./registry.ts";
import type { ConsulQuery, ConsulQueryResult } from "./services/consul-client.ts";
import type { InputVariable, InputVariableDeclaration } from "./task-inputs.ts";
import type { Logger } from "./services/logger.ts";

/** Why a run happened; recorded in the task's event. */
export interface TriggerReason {
  /**
   * `drift` for a drift check and the apply that corrects it
   * (`drift_detection`); a destroy is asked for through the API (`api`). `secret`: a Vault secret
   * the task's provider blocks read changed (`detail` names its path, never its value).
   */
  readonly kind: "dependency" | "schedule" | "api" | "startup" | "leader" | "retry" | "drift" | "secret";
  /** E.g. the Consul query that changed, or the cron expression. */
  readonly detail?: string;
}

/** The engine's shared watcher: one blocking query per distinct `ConsulQuery.key`. */
export interface QueryWatcher {
  /**
   * Calls `listener` with the current result as soon as it is known and after every change.
   * Returns an unsubscribe function; the blocking query stops when its last listener leaves.
   *
   * `onError` hears permanent errors of the query (`isPermanentConsulError`:
   * an unknown datacenter, a bad filter, a 400 or 403), also at once when the query is failing
   * as one subscribes. The watch goes on; a later result means the error was fixed.
   */
  subscribe(
    query: ConsulQuery,
    listener: (result: ConsulQueryResult) => void,
    onError?: (error: Error) => void,
  ): () => void;
  /** Optional (the engine's watcher has it): blocking queries open and subscriptions, for metrics. */
  stats?(): { readonly open: number; readonly subscribers: number };
}

export interface InputContext {
  readonly watcher: QueryWatcher;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** Publishes this source's latest value for `variable`. */
  publish(variable: InputVariable, value: unknown): void;
  /** Conditions only: asks the engine to run the task (buffer periods apply). */
  trigger(reason: TriggerReason): void;
  /**
   * Reports the latest data a source watches without publishing it (a condition with
   * `use_as_module_input = false`); the engine's context always has it. The engine skips a run
   * only when neither the rendered inputs nor this data changed since the last successful run, so a
   * condition that triggers without publishing must report what it watched, or its runs are skipped.
   */
  observe?(value: unknown): void;
  /**
   * Reports a permanent error of a query after `start` resolved
   * (before that, `start` rejects with it). The engine marks the task errored.
   */
  reportError?(error: Error): void;
  /**
   * Conditions only: Consul answered with new data (a new index,
   * e.g. a KV key written with the value it had) that renders exactly as before, so nothing
   * triggers. The engine keeps it in the run history as a skipped trigger; nothing runs.
   */
  unchanged?(reason: TriggerReason): void;
}

/** A running condition or module input for one task. */
export interface InputSource {
  /** The variable this source renders, if any (a schedule renders none). */
  readonly variable?: InputVariable;
  /**
   * Starts watching; resolves once the first value has been published (or at once if none).
   * Rejects when a query fails permanently before that (`isPermanentConsulError`).
   */
  start(ctx: InputContext): Promise<void>;
  stop(): void;
}

/**
 * How a condition or module_input block looks in CTS's HTTP API,
 * where it is keyed by its underscored type (`condition: { catalog_services: {...} }`). Its owner
 * says it, so the API names no block's fields. Every member is optional; without one the API
 * takes any object, leaves every check to the kernel (`optionsSchema`, then `validate`, with field
 * paths) and shows the block's options without `type`. `O` is the block's options, as in
 * `InputBlockFactory<O>`.
 */
export interface BlockApiFace<O extends object = BlockFields> {
  /**
   * The block's body in `POST /v1/tasks`, checked by the API before anything else and described
   * by `/v1/openapi.json`. For a type that CTS also serves, its request schema with its quirks
   * (CTS's validation texts come from it). @default none: the API checks nothing itself and
   * `/v1/openapi.json` shows `optionsSchema`
   */
  readonly requestSchema?: JsonSchema;
  /**
   * The checked request body → the block as a config file writes it (undoes API-only spellings,
   * such as CTS's null map values). It must not mutate `body`. @default the body as sent
   */
  fromRequest?(body: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /**
   * The block as `GET /v1/tasks/{name}` shows it, from the task's stored block as the kernel decodes
   * it for every hook (a record another version stored included; its label kept as `type`). A stored
   * block its owner refuses is shown with the default. Keys in the order CTS prints them.
   * @default the fields without `type`
   */
  represent?(block: O): Record<string, unknown>;
}

/** A block's fields as the kernel hands them to its owner when the owner names no type. */
export type BlockFields = Readonly<Record<string, unknown>>;

/**
 * What condition and module-input factories share: a block owner. `O` is the block's options as
 * the kernel hands them over: checked against `optionsSchema` once when the task is completed
 * (renamed fields moved, weakly decoded as CTS decodes config, defaults applied), frozen, and the
 * same object in every hook. Derive it from the schema with `OptionsOf<typeof schema>` so the
 * schema is the one description of the block. @default untyped fields (`BlockFields`)
 */
export interface InputBlockFactory<O extends object = BlockFields> extends Named {
  /** Validates the block's fields (after normalisation). */
  readonly optionsSchema?: JsonSchema;
  /**
   * Rules of the block a JSON Schema cannot say (one of two fields, a
   * pattern's syntax), run by the kernel once the block passed `optionsSchema` (defaults applied),
   * for config files and API-created tasks alike.
   */
  validate?(options: O): readonly BlockProblem[];
  /** The block in the HTTP API. */
  readonly api?: BlockApiFace<O>;
  /**
   * The input variable this block type publishes, whatever its options (CTS:
   * services → `services`, consul-kv → `consul_kv`). Each variable may have one source per task, so
   * the kernel refuses a condition and a module_input (or two module_inputs) that publish the same one.
   */
  readonly publishes?: InputVariable;
  /**
   * The variable a block with these options renders, or undefined when it only watches (CTS:
   * `use_as_module_input = false`). The engine tells the task's driver which variables to declare
   * from it before any source exists. @default the `variable` of a source created only to ask
   */
  publishesFor?(options: O): InputVariable | undefined;
  /**
   * How a Terraform driver declares the variable this block publishes (variables.tf: type,
   * description). For a variable of a third-party block; CTS's own are declared as CTS does.
   * @default `type = any`
   */
  readonly variableDeclaration?: InputVariableDeclaration;
  /**
   * Deprecated field names → their current names (CTS: `source_includes_var`
   * → `use_as_module_input`). Before it checks the block, the kernel moves a value written under an
   * old name to the new one (unless that is set too) and warns "<old> is deprecated; use <new>".
   */
  readonly renamedFields?: Readonly<Record<string, string>>;
  /**
   * The template CTS writes for this block into terraform.tfvars.tmpl (hcat
   * syntax, e.g. `{{ service "web" "dc=dc1" }}` inside `services = {...}`), from the block as the
   * kernel completed it (defaults applied). The engine hands each block's text to the task's driver
   * (`DriverContext.templates`), so no driver reads a block's fields. @default the block has none
   */
  template?(options: O): string;
  /**
   * The body this block stands for when a task uses CTS's deprecated task
   * field `services` (CTS: the list becomes a `condition "services"`, or a `module_input "services"`
   * next to another condition). `ids` is the list as written; `serviceBlocks` are the deprecated
   * top-level `service` blocks as written; `warn` reports a problem that does not stop the task
   * (logged at WARN against the task's `services` field). @default the block type cannot stand for it
   */
  fromDeprecatedServices?(
    ids: readonly string[],
    serviceBlocks: readonly Readonly<Record<string, unknown>>[],
    warn: (message: string) => void,
  ): Record<string, unknown>;
  /**
   * A source for one task. `task` lets a source honour cross-block rules (e.g. a services module
   * input takes `cts_user_defined_meta` from the task's services condition); engines should pass it.
   */
  create(options: O, taskName: string, task?: TaskConfig): InputSource;
}

/** Registered by condition plugins; `name` is the `condition "<name>"` label. */
export interface ConditionFactory<O extends object = BlockFields> extends InputBlockFactory<O> {
  /** True when the condition ignores buffer periods (CTS: schedule). */
  readonly unbuffered?: boolean;
}

/** Registered by module-input plugins; `name` is the `module_input "<name>"` label. A module input never triggers. */
export interface ModuleInputFactory<O extends object = BlockFields> extends InputBlockFactory<O> {}
