/**
 * @module One drift check of one task: between runs (never during one), the driver plans the inputs
 * the task last applied, changing nothing, and the result becomes a run record of kind
 * `drift-check` (`outcome` "checked" with `drift`, or "failed" with the error). A check is not a
 * run: it records no CTS event, does not change the task's status and is never retried.
 */
import type { DriftFinding, DriftReport, RunRecord } from "../../../core/plugin-api/mod.ts";
import { CtsError, errorMessage } from "../../../core/plugin-api/mod.ts";
import type { EngineContext } from "./engine-context.ts";
import type { DriftSettings } from "./drift-settings.ts";
import type { TaskRuntime } from "./task-runtime.ts";

/** What a check ended with; `record` is absent when nothing was checked (see `why`). */
export interface DriftCheckResult {
  readonly record?: RunRecord;
  readonly report?: DriftReport;
  readonly error?: string;
  /** Why no check ran (no successful apply yet, the task is being deleted, ...). */
  readonly why?: string;
}

/** Checks `runtime` once; `correcting` says whether an apply will follow (auto_correct). */
export function checkTaskDrift(runtime: TaskRuntime, ctx: EngineContext, settings: DriftSettings): Promise<DriftCheckResult> {
  return runtime.exclusive(async () => {
    if (runtime.deleting || !runtime.armed || !runtime.config.enabled) return { why: "the task is not active" };
    const inputs = runtime.lastAppliedInputs;
    if (!inputs) return { why: "the task has not applied successfully since this instance started" };
    const mask = (text: string) => ctx.records.secrets.mask(text);
    const open = runtime.recorder.begin({ kind: "drift", detail: settings.describe }, { change: {} }, { kind: "drift-check" });
    try {
      await runtime.prepare();
      const driver = runtime.driver!;
      if (!driver.checkDrift) {
        throw new CtsError("CTS_ERR_DRIVER", `Cannot check task "${runtime.name}" for drift: driver "${runtime.config.driver}" cannot plan for drift`);
      }
      await driver.render(inputs, ctx.signal);
      const report = await driver.checkDrift(ctx.signal);
      const resources = report.resources.map((resource) => ({ address: mask(resource.address), action: resource.action }));
      const drift: DriftFinding = {
        detected: report.drifted,
        resources,
        ...(report.drifted && settings.autoCorrect ? { corrected: true } : {}),
      };
      const record = await open.end({ outcome: "checked", extra: { drift } });
      return { record, report: { ...report, resources } };
    } catch (error) {
      const message = mask(errorMessage(error));
      const record = await open.end({ outcome: "failed", error: message });
      return { record, error: message };
    }
  });
}
