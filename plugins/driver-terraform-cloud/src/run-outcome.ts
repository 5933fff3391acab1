/**
 * @module What an ended run means for the task, honestly: applied (or nothing to apply) is a
 * success; a run that waited for a person and made way for newer inputs is not applied (it is
 * discarded, the next run replaces it); errored, canceled and discarded runs are failures that
 * carry Terraform's own error text and the run's URL, which the engine puts in the task's event.
 */
import { type ApplyResult, CtsError, type DriverRunFailure, type Logger } from "../../../core/plugin-api/mod.ts";
import { runResourceCounts } from "./run-counts.ts";
import type { Followed, FollowedRun } from "./run-follower.ts";
import { isSuccess } from "./run-states.ts";
import { discardRun, failureLog } from "./runs.ts";
import type { TfcClient } from "./tfc-client.ts";
import type { WorkspaceInfo } from "./workspace.ts";

/** A run that did not do what it was queued for; `url` reaches the task's event. */
export class TfcRunError extends CtsError implements DriverRunFailure {
  readonly url: string;
  constructor(url: string, message: string) {
    super("CTS_ERR_DRIVER", message);
    this.url = url;
  }
}

export interface OutcomeContext {
  readonly client: TfcClient;
  readonly ws: WorkspaceInfo;
  readonly task: string;
  readonly url: string;
  readonly logger: Logger;
  readonly signal: AbortSignal;
}

/** The error of a run that ended without doing its job, with the failed phase's own text. */
export async function runFailure(ctx: OutcomeContext, run: FollowedRun, step: "apply" | "inspect"): Promise<TfcRunError> {
  const status = String(run.attributes.status);
  const tail = await failureLog(ctx.client, run, ctx.signal).catch(() => "");
  return new TfcRunError(ctx.url, `Cannot ${step} task "${ctx.task}": run ${run.id} ended "${status}" (${ctx.url})${tail ? `: ${tail}` : ""}`);
}

export async function applyOutcome(ctx: OutcomeContext, { run, superseded }: Followed): Promise<ApplyResult> {
  const { url, ws, logger } = ctx;
  const status = String(run.attributes.status);
  if (superseded) {
    await discardRun(ctx.client, ws, run.id, "Discarded by cts-runtime: newer inputs replace it", ctx.signal);
    logger.info("discarded the run waiting in HCP Terraform: newer inputs replace it", { workspace_name: ws.name, run_id: run.id, status, url });
    return { url, unapplied: `run ${run.id} was "${status}", waiting for a person, when newer inputs arrived: it is discarded and the next run replaces it (${url})` };
  }
  if (!isSuccess(status)) throw await runFailure(ctx, run, "apply");
  logger.info("run completed", { workspace_name: ws.name, run_id: run.id, status, url });
  const summary = runResourceCounts(run);
  return summary ? { url, summary } : { url };
}
