/**
 * @module Queueing a run, discarding a stale one, and reading what a run wrote: its phase logs
 * (paged, without the STX/ETX framing) and, for a run that failed, Terraform's own error text.
 */
import type { Logger } from "../../../core/plugin-api/mod.ts";
import { concatBytes } from "./bytes.ts";
import { isStaleWaiting } from "./run-states.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import type { WorkspaceInfo } from "./workspace.ts";

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

export async function discardRun(client: TfcClient, ws: WorkspaceInfo, runId: string, why: string, signal: AbortSignal): Promise<void> {
  await client.api(`discard run ${runId} of workspace "${ws.name}"`, "POST", `/runs/${runId}/actions/discard`, { comment: why }, { signal });
}

/** A run still waiting for a person would hold the workspace before the new one: discard it (CTS does). */
export async function discardStaleRuns(client: TfcClient, ws: WorkspaceInfo, logger: Logger, signal: AbortSignal): Promise<void> {
  const doc = await client.api(`list the runs of workspace "${ws.name}"`, "GET", `/workspaces/${ws.id}/runs?page%5Bsize%5D=20`, undefined, { signal });
  for (const run of (doc?.data ?? []) as Resource[]) {
    if (!isStaleWaiting(String(run.attributes.status)) || !run.attributes.actions?.["is-discardable"]) continue;
    await discardRun(client, ws, run.id, "Discarded by cts-runtime: a newer run replaces it", signal);
    logger.info("discarded stale run waiting for approval", { workspace_name: ws.name, run_id: run.id });
  }
}

/** The phases' endpoints (HCP Terraform spells the plural of apply `applies`). */
const PHASE_PATH = { plan: "plans", apply: "applies" } as const;

/** Terraform's own error text of the phase that failed: from its first `Error:` line, at most 12 lines. */
export async function failureLog(client: TfcClient, run: Resource, signal: AbortSignal): Promise<string> {
  for (const phase of ["apply", "plan"] as const) {
    const rel = run.relationships?.[phase]?.data;
    if (!rel || Array.isArray(rel)) continue;
    const doc = await client.api(`read the ${phase} of run ${run.id}`, "GET", `/${PHASE_PATH[phase]}/${rel.id}`, undefined, { allow404: true, signal });
    const a = (doc?.data as Resource | undefined)?.attributes;
    if (!a || a.status !== "errored" || typeof a["log-read-url"] !== "string") continue;
    const lines = (await readLog(client, a["log-read-url"], signal)).split("\n").map((line) => line.replace(/^[│╷╵]\s?/, "").trim()).filter(Boolean);
    const first = lines.findIndex((line) => line.startsWith("Error:"));
    return (first >= 0 ? lines.slice(first, first + 12) : lines.slice(-8)).join(" | ");
  }
  return "";
}

const ETX = 0x03;

/** A plan or apply log, paged by byte offset, without the STX/ETX framing, cleaned (TfcClient.cleanLog). */
export async function readLog(client: TfcClient, url: string, signal: AbortSignal): Promise<string> {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  for (let page = 0; page < 50; page++) {
    const separator = url.includes("?") ? "&" : "?";
    const chunk = await client.getBytes("read a run log", `${url}${separator}limit=65536&offset=${offset}`, signal);
    chunks.push(chunk);
    offset += chunk.length;
    if (chunk.length === 0 || chunk.includes(ETX)) break;
  }
  return client.cleanLog(new TextDecoder().decode(concatBytes(chunks)).replace(/[\u0002\u0003]/g, ""));
}
