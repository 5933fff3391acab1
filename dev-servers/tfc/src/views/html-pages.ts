/**
 * @module The read-only pages behind the URLs clients print (`/app/<org>/workspaces/<name>` and
 * `.../runs/<run id>`): a workspace's settings, lock, variables (sensitive values hidden) and runs;
 * a run's state, message and its plan and apply logs. Plain HTML, every value escaped, no script;
 * a page of a run still going refreshes itself.
 */
import { isFinal } from "../runs/run-transitions.ts";
import { unservableVersion } from "../runs/version-support.ts";
import type { OrganizationRecord, RunRecord, WorkspaceRecord } from "../state/records.ts";
import type { TfcState } from "../state/tfc-state.ts";

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function esc(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

const STYLE = "body{font:14px/1.5 system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}" +
  "td,th{border-bottom:1px solid #ccc;padding:.2rem .8rem;text-align:left}pre{background:#f4f4f4;padding:1rem;overflow:auto}" +
  ".warn{background:#fff3cd;padding:.5rem 1rem}";

function page(title: string, body: string, refresh: boolean): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
    `${refresh ? '<meta http-equiv="refresh" content="3">' : ""}<style>${STYLE}</style></head>` +
    `<body><p>tfc-dev, an HCP Terraform-compatible server for development</p>${body}</body></html>`;
  return new Response(html, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'" },
  });
}

function rows(pairs: readonly (readonly [string, unknown])[]): string {
  return `<table>${pairs.map(([key, value]) => `<tr><th>${esc(key)}</th><td>${esc(value)}</td></tr>`).join("")}</table>`;
}

export interface PageContext {
  readonly state: TfcState;
  /** The version of the binary runs execute with, when one was found. */
  readonly terraformVersion: string | undefined;
}

function workspaceLink(org: OrganizationRecord, ws: WorkspaceRecord): string {
  return `/app/${encodeURIComponent(org.name)}/workspaces/${encodeURIComponent(ws.name)}`;
}

export function workspacePage(ctx: PageContext, org: OrganizationRecord, ws: WorkspaceRecord): Response {
  const lock = ws.lock === null ? "unlocked" : ws.lock.by === "run" ? `locked by run ${ws.lock.runId}` : `locked by a user${ws.lock.reason ? `: ${ws.lock.reason}` : ""}`;
  const unservable = ctx.terraformVersion ? unservableVersion(ctx.terraformVersion, ws.terraformVersion) : undefined;
  const variables = ctx.state.variablesOf(ws.id).map((v) =>
    `<tr><td>${esc(v.key)}</td><td>${esc(v.category)}</td><td>${v.sensitive ? "(sensitive)" : `<code>${esc(v.value)}</code>`}</td></tr>`).join("");
  const runs = ctx.state.runsOf(ws.id).map((run) =>
    `<tr><td><a href="${esc(`${workspaceLink(org, ws)}/runs/${run.id}`)}">${esc(run.id)}</a></td><td>${esc(run.status)}</td>` +
    `<td>${esc(run.message)}</td><td>${esc(run.createdAt)}</td></tr>`).join("");
  const body = `<h1>Workspace ${esc(ws.name)}</h1>` +
    (unservable ? `<p class="warn">Runs of this workspace will error: ${esc(unservable)}</p>` : "") +
    rows([
      ["id", ws.id], ["organization", org.name], ["terraform version", ws.terraformVersion], ["execution mode", ws.executionMode],
      ["auto apply", ws.autoApply], ["lock", lock], ["tags", ws.tagNames.join(", ")], ["current run", ws.currentRunId ?? "none"],
    ]) +
    `<h2>Variables</h2><table><tr><th>key</th><th>category</th><th>value</th></tr>${variables}</table>` +
    `<h2>Runs (newest first)</h2><table><tr><th>run</th><th>status</th><th>message</th><th>created</th></tr>${runs}</table>`;
  return page(`Workspace ${ws.name}`, body, ctx.state.runsOf(ws.id).some((run) => !isFinal(run.status)));
}

export function runPage(ctx: PageContext, org: OrganizationRecord, ws: WorkspaceRecord, run: RunRecord): Response {
  const plan = ctx.state.plans.get(run.planId);
  const apply = ctx.state.applies.get(run.applyId);
  const body = `<h1>Run ${esc(run.id)}</h1>` +
    `<p><a href="${esc(workspaceLink(org, ws))}">workspace ${esc(ws.name)}</a></p>` +
    rows([
      ["status", run.status], ["message", run.message], ["created", run.createdAt], ["terraform version", run.terraformVersion],
      ["plan only", run.planOnly], ["destroy", run.isDestroy], ["has changes", run.hasChanges],
      ["plan", plan ? `${plan.status}: +${plan.resourceAdditions} ~${plan.resourceChanges} -${plan.resourceDestructions}` : "none"],
      ["apply", apply ? `${apply.status}: +${apply.resourceAdditions} ~${apply.resourceChanges} -${apply.resourceDestructions}` : "none"],
      ...Object.entries(run.statusTimestamps),
    ]) +
    `<h2>Plan log</h2><pre>${esc(plan?.log.text() ?? "")}</pre>` +
    `<h2>Apply log</h2><pre>${esc(apply?.log.text() ?? "")}</pre>`;
  return page(`Run ${run.id}`, body, !isFinal(run.status));
}
