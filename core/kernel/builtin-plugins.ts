/**
 * @module The built-in plugins, loaded through the same path as third-party ones.
 * Add a plugin by adding one line: `{ id: "<id>", load: () => import("../../plugins/<id>/mod.ts") }`,
 * with `when` if it only applies to some configs or modes. Order is the tie-break of start order.
 */
import type { CtsConfig, RunOptions } from "../plugin-api/mod.ts";

export interface BuiltinPlugin {
  /** The plugin's id (also its folder under plugins/). */
  readonly id: string;
  /** Imports the plugin package; its default export is the plugin definition. */
  readonly load: () => Promise<unknown>;
  /** Loads the plugin only when this returns true (default: always). */
  readonly when?: (config: CtsConfig, run: RunOptions) => boolean;
  /**
   * The plugin is also published as a package: a `plugin` block that loads a package with the same
   * id replaces the built-in (a newer or patched copy wins) instead of being refused as a duplicate.
   */
  readonly replaceable?: boolean;
}

export const builtinPlugins: readonly BuiltinPlugin[] = [
  { id: "consul-client", load: () => import("../../plugins/consul-client/mod.ts") },
  { id: "vault-client", load: () => import("../../plugins/vault-client/mod.ts") },
  // Drivers before the engine: a missing binary is reported before any task runs.
  { id: "driver-terraform", load: () => import("../../plugins/driver-terraform/mod.ts") },
  { id: "driver-terraform-cloud", load: () => import("../../plugins/driver-terraform-cloud/mod.ts") },
  { id: "task-engine", load: () => import("../../plugins/task-engine/mod.ts") },
  { id: "task-store-memory", load: () => import("../../plugins/task-store-memory/mod.ts"), when: (config) => !config.high_availability },
  { id: "leadership-standalone", load: () => import("../../plugins/leadership-standalone/mod.ts"), when: (config) => !config.high_availability },
  { id: "ha-consul", load: () => import("../../plugins/ha-consul/mod.ts"), when: (config) => config.high_availability !== undefined },
  { id: "consul-inputs", load: () => import("../../plugins/consul-inputs/mod.ts") },
  { id: "condition-schedule", load: () => import("../../plugins/condition-schedule/mod.ts") },
  // Also published as a package (@example/cts-condition-nodes): an installed copy loaded by a plugin block replaces it.
  { id: "condition-nodes", load: () => import("../../plugins/condition-nodes/mod.ts"), replaceable: true },
  // Owns the task block `hooks`: loaded in every mode, so a task that sets one is never refused as unknown.
  { id: "task-hooks", load: () => import("../../plugins/task-hooks/mod.ts") },
  { id: "http-api", load: () => import("../../plugins/http-api/mod.ts"), when: (_config, run) => run.mode === "daemon" },
  { id: "metrics", load: () => import("../../plugins/metrics/mod.ts"), when: (_config, run) => run.mode === "daemon" },
  { id: "service-registration", load: () => import("../../plugins/service-registration/mod.ts"), when: (_config, run) => run.mode === "daemon" },
  { id: "status-page", load: () => import("../../plugins/status-page/mod.ts"), when: (_config, run) => run.mode === "daemon" },
  // Loaded only when configured: `plugin "notifier-webhook" { options = { url = "...", ... } }`.
  { id: "notifier-webhook", load: () => import("../../plugins/notifier-webhook/mod.ts"), when: () => false },
];
