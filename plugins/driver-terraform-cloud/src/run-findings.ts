/**
 * @module What an HCP Terraform run did, for the task's run record: the plan and apply logs (told
 * to the run's observer once each phase is over), the resources from the plan's JSON (HCP
 * Terraform's own JSON plan, the format `terraform show -json` writes), and each phase's time from
 * its status timestamps. Nothing here fails a run: what cannot be read is left out.
 */
import { planResourceChanges, type ResourceChange, type RunFindings, type RunObserver, type RunPhase } from "../../../core/plugin-api/mod.ts";
import { readLog } from "./runs.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";

/** Milliseconds from a phase's start to its end, from its status timestamps. */
function phaseMs(phase: Resource): number | undefined {
  const stamps = (phase.attributes["status-timestamps"] ?? {}) as Record<string, string>;
  const start = Date.parse(stamps["started-at"] ?? "");
  const end = Date.parse(stamps["finished-at"] ?? stamps["errored-at"] ?? stamps["canceled-at"] ?? "");
  return Number.isFinite(start) && Number.isFinite(end) && end >= start ? end - start : undefined;
}

function relationId(run: Resource, name: string): string | undefined {
  const rel = run.relationships?.[name]?.data;
  return rel && !Array.isArray(rel) ? rel.id : undefined;
}

/** Reads the run's phases (and, for the plan, its JSON) and tells their logs to `observer`. */
export async function runFindings(client: TfcClient, run: Resource, signal: AbortSignal, observer?: RunObserver): Promise<RunFindings> {
  const phases_ms: Partial<Record<RunPhase, number>> = {};
  let resources: ResourceChange[] | undefined;
  for (const [phase, type] of [["plan", "plans"], ["apply", "applies"]] as const) {
    const id = relationId(run, phase);
    if (!id) continue;
    const doc = await client.api(`read the ${phase} of run ${run.id}`, "GET", `/${type}/${id}`, undefined, { allow404: true, signal });
    const resource = doc?.data as Resource | undefined;
    if (!resource) continue;
    const ms = phaseMs(resource);
    if (ms !== undefined) phases_ms[phase] = ms;
    const logUrl = resource.attributes["log-read-url"];
    if (observer && typeof logUrl === "string" && resource.attributes.status !== "pending") {
      const log = await readLog(client, logUrl, signal);
      if (log) observer.output(phase, log.endsWith("\n") ? log : `${log}\n`);
    }
    if (phase === "plan" && resource.attributes.status === "finished") {
      const json = await client.apiText(`read the JSON plan of run ${run.id}`, `/plans/${id}/json-output`, signal);
      if (json) resources = planResourceChanges(JSON.parse(json));
    }
  }
  return { ...(resources ? { resources } : {}), ...(Object.keys(phases_ms).length > 0 ? { phases_ms } : {}) };
}
