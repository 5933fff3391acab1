/**
 * @module The engine's side of run hooks (`runHookRegistryToken`): every registered hook before
 * the apply (the first veto cancels the run) and after it, in registration order. A hook that
 * throws is reported as failed, never as a broken run: before the apply that cancels the run, after
 * it the run is marked. Reports are masked here too, whatever the plugin did.
 */
import type {
  HookReport, Logger, PlanSummary, Registry, RunHook, RunHookContext, RunRecord, SecretMasker,
} from "../../../core/plugin-api/mod.ts";
import { errorMessage } from "../../../core/plugin-api/mod.ts";

/** Thrown inside a run when a hook vetoed it: the run ends `cancelled`, not `failed`, and is not retried. */
export class RunCancelled extends Error {
  override readonly name = "RunCancelled";
  readonly reports: readonly HookReport[];

  constructor(reason: string, reports: readonly HookReport[]) {
    super(reason);
    this.reports = reports;
  }
}

/** What the hooks after an apply add to its record. */
export interface AfterApply {
  readonly hooks?: readonly HookReport[];
  readonly hooks_failed?: boolean;
}

export class RunHooks {
  readonly #registry: Registry<RunHook>;
  readonly #logger: Logger;
  readonly #secrets: SecretMasker;

  constructor(registry: Registry<RunHook>, logger: Logger, secrets: SecretMasker) {
    this.#registry = registry;
    this.#logger = logger;
    this.#secrets = secrets;
  }

  /** The reports of the hooks before the apply; throws RunCancelled at the first veto. */
  async before(context: RunHookContext): Promise<readonly HookReport[]> {
    const reports: HookReport[] = [];
    for (const hook of this.#hooks()) {
      if (!hook.beforeApply) continue;
      const started = Date.now();
      try {
        const result = await hook.beforeApply(context);
        reports.push(...result.reports.map((report) => this.#secrets.maskValue(report)));
        if (result.veto !== undefined) throw new RunCancelled(this.#secrets.mask(result.veto), reports);
      } catch (error) {
        if (error instanceof RunCancelled) throw error;
        const report = this.#failed(hook.name, error, started);
        throw new RunCancelled(`Cannot apply: run hook "${hook.name}" failed: ${report.error}`, [...reports, report]);
      }
    }
    return reports;
  }

  /** The reports of the hooks after the apply; a failure marks the run (`hooks_failed`). */
  async after(context: RunHookContext, before: readonly HookReport[]): Promise<AfterApply> {
    const reports: HookReport[] = [...before];
    let failed = false;
    for (const hook of this.#hooks()) {
      if (!hook.afterApply) continue;
      const started = Date.now();
      try {
        const done = (await hook.afterApply(context)).map((report) => this.#secrets.maskValue(report));
        reports.push(...done);
        failed ||= done.some((report) => report.outcome !== "ok");
      } catch (error) {
        reports.push(this.#failed(hook.name, error, started));
        failed = true;
      }
    }
    if (failed) this.#logger.warn("a hook after the apply failed; the run's outcome stands", { task_name: context.task.name, run_id: context.run.id });
    return { ...(reports.length > 0 ? { hooks: reports } : {}), ...(failed ? { hooks_failed: true } : {}) };
  }

  #hooks(): RunHook[] {
    return this.#registry.names().map((name) => this.#registry.get(name)!);
  }

  #failed(name: string, error: unknown, started: number): HookReport {
    const message = this.#secrets.mask(errorMessage(error));
    this.#logger.error("run hook failed", { hook: name, error: message });
    return { name, outcome: "failed", error: message, duration_ms: Date.now() - started };
  }
}

/** The record a run ended with, as the hooks after it see it (before it is stored). */
export function endedView(record: RunRecord, error: string | undefined, plan: PlanSummary | undefined): RunRecord {
  const ended = Date.now();
  return {
    ...record,
    outcome: error === undefined ? "applied" : "failed",
    ...(error !== undefined ? { error } : {}),
    ...(plan ? { plan } : {}),
    ended_at: new Date(ended).toISOString(),
    duration_ms: ended - Date.parse(record.started_at),
  };
}
