/**
 * @module Queueing a run and following it to the end. A run on a manual-apply workspace stops at
 * `planned`, waiting for someone to confirm it in HCP Terraform: CTS leaves it there.
 */
import { CtsError, type Logger, sleep } from "../../../core/plugin-api/mod.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import type { WorkspaceInfo } from "./workspace.ts";

/** States a run does not leave by itself. */
const FINAL = new Set(["applied", "planned_and_finished", "errored", "discarded", "canceled", "force_canceled", "policy_soft_failed"]);
/** States of a run waiting for a confirmation. */
const AWAITING = new Set(["planned", "cost_estimated", "policy_checked", "policy_override", "post_plan_completed"]);
export const SUCCESS = new Set(["applied", "planned_and_finished"]);

export function runUrl(ws: WorkspaceInfo, runId: string): string {
  return `${ws.url}/runs/${runId}`;
}

export interface QueueRun {
  readonly message: string;
  readonly configurationVersionId: string;
  readonly planOnly?: boolean;
  readonly isDestroy?: boolean;
  /** A plan that only refreshes the state (drift detection); with `planOnly`, nothing is written. */
  readonly refreshOnly?: boolean;
  readonly variables?: readonly { key: string; value: string }[];
}

export async function queueRun(client: TfcClient, ws: WorkspaceInfo, run: QueueRun, signal: AbortSignal): Promise<Resource> {
  const doc = await client.api(`queue a run in workspace "${ws.name}"`, "POST", "/runs", {
    data: {
      type: "runs",
      attributes: {
        message: run.message,
        ...(run.planOnly ? { "plan-only": true } : {}),
        ...(run.isDestroy ? { "is-destroy": true } : {}),
        ...(run.refreshOnly ? { "refresh-only": true } : {}),
        ...(run.variables ? { variables: run.variables } : {}),
      },
      relationships: {
        workspace: { data: { type: "workspaces", id: ws.id } },
        "configuration-version": { data: { type: "configuration-versions", id: run.configurationVersionId } },
      },
    },
  }, { signal });
  return doc!.data as Resource;
}

/** Polls until the run is final, or waits for a confirmation that only a person will give. */
/** A run as last read, with its plan (`include=plan`: its resource counts cost no extra request). */
export type FollowedRun = Resource & { readonly plan?: Resource };

export async function followRun(client: TfcClient, ws: WorkspaceInfo, runId: string, signal: AbortSignal): Promise<FollowedRun> {
  let delay = 250;
  for (;;) {
    const doc = await client.api(`read run ${runId} of workspace "${ws.name}"`, "GET", `/runs/${runId}?include=plan`, undefined, { signal });
    const data = doc!.data as Resource;
    const plan = doc!.included?.find((resource) => resource.type === "plans");
    const run: FollowedRun = plan ? { ...data, plan } : data;
    const status = String(run.attributes.status);
    if (FINAL.has(status)) return run;
    if (AWAITING.has(status) && run.attributes["auto-apply"] === false && run.attributes.actions?.["is-confirmable"]) return run;
    if (signal.aborted) throw new CtsError("CTS_ERR_DRIVER", `Cannot follow run ${runId} of workspace "${ws.name}": stopped while it was "${status}"`);
    await sleep(delay, signal);
    delay = Math.min(delay * 2, 2000);
  }
}

/** On a manual-apply workspace, a run still waiting for approval would block the new one: discard it. */
export async function discardStaleRuns(client: TfcClient, ws: WorkspaceInfo, logger: Logger, signal: AbortSignal): Promise<void> {
  const doc = await client.api(`list the runs of workspace "${ws.name}"`, "GET", `/workspaces/${ws.id}/runs?page%5Bsize%5D=20`, undefined, { signal });
  for (const run of (doc?.data ?? []) as Resource[]) {
    if (!AWAITING.has(String(run.attributes.status)) || !run.attributes.actions?.["is-discardable"]) continue;
    await client.api(`discard run ${run.id} of workspace "${ws.name}"`, "POST", `/runs/${run.id}/actions/discard`, {
      comment: "Discarded by cts-runtime: a newer run replaces it",
    }, { signal });
    logger.info("discarded stale run waiting for approval", { workspace: ws.name, run_id: run.id });
  }
}

/** Where the API serves each phase (`/applies/<id>`, not `/applys/`). */
const PHASE_PATHS = { apply: "applies", plan: "plans" } as const;

/** The last lines of the phase log that failed, for the error message. */
export async function failureLog(client: TfcClient, run: Resource, signal: AbortSignal): Promise<string> {
  for (const phase of ["apply", "plan"] as const) {
    const rel = run.relationships?.[phase]?.data;
    if (!rel || Array.isArray(rel)) continue;
    const doc = await client.api(`read the ${phase} of run ${run.id}`, "GET", `/${PHASE_PATHS[phase]}/${rel.id}`, undefined, { allow404: true, signal });
    const a = (doc?.data as Resource | undefined)?.attributes;
    if (!a || a.status !== "errored" || typeof a["log-read-url"] !== "string") continue;
    const lines = (await readLog(client, a["log-read-url"], signal)).split("\n").map((line) => line.trim()).filter(Boolean);
    return lines.slice(-8).join(" | ");
  }
  return "";
}

/** A plan or apply log, paged with limit/offset, without the STX/ETX framing, cleaned (TfcClient.cleanLog). */
export async function readLog(client: TfcClient, url: string, signal: AbortSignal): Promise<string> {
  let text = "";
  for (let page = 0; page < 50; page++) {
    const separator = url.includes("?") ? "&" : "?";
    const chunk = await client.getText("read a run log", `${url}${separator}limit=65536&offset=${text.length}`, signal);
    text += chunk;
    if (chunk === "" || chunk.includes("\u0003")) break;
  }
  return client.cleanLog(text.replace(/[\u0002\u0003]/g, ""));
}
