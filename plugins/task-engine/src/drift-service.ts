/**
 * @module Drift monitoring as a service of this plugin: the daemon checks tasks for drift on
 * their schedules (drift-monitor.ts) and counts the checks for `/metrics`; -once and -inspect never
 * check. The engine option `drift_detection` is checked in every mode, so a bad one fails any start.
 */
import type { DriftState, ServiceContext } from "../../../core/plugin-api/mod.ts";
import { defineService, loggerToken, metricsSourceRegistryToken, runOptionsToken } from "../../../core/plugin-api/mod.ts";
import { DriftMonitor } from "./drift-monitor.ts";
import { checkDriftDefaults } from "./drift-settings.ts";
import type { EngineOptions } from "./engine-options.ts";
import { driftStatesToken, engineToken } from "./engine-tokens.ts";

/** What the task manager reads and tells of drift checks. */
export interface DriftStates {
  /** The task's drift state for the API; undefined where drift is never checked (-once, -inspect). */
  stateOf(name: string): DriftState | undefined;
  /** The task was deleted or changed: its findings no longer hold, and its schedule restarts. */
  forget(name: string): void;
}

const NEVER_CHECKED: DriftStates = Object.freeze({ stateOf: () => undefined, forget: () => {} });

export const driftService = defineService({
  token: driftStatesToken,
  deps: { engine: engineToken, runOptions: runOptionsToken, metricsSources: metricsSourceRegistryToken, logger: loggerToken },
  create({ engine, runOptions, metricsSources, logger }, { options, lifecycle }: ServiceContext<EngineOptions>): DriftStates {
    checkDriftDefaults(options.drift_detection);
    if (runOptions.mode !== "daemon") return NEVER_CHECKED;
    const drift = new DriftMonitor(engine, logger, options.drift_detection);
    metricsSources.register(drift);
    // Registered after the engine's hooks: checks start once the engine did, and stop before it stops.
    lifecycle.onStart(() => drift.start());
    lifecycle.onStop(() => drift.stop());
    return drift;
  },
});
