/**
 * @module Test and bench helper: a large run history written straight into the embedded Consul
 * server's state (in process, one write per task), in the layout the HA store keeps: per record a
 * summary like the engine's (a trigger, a change of a few instances, plan counts, phase times) and,
 * for the tasks asked, a detail with plan and apply output like Terraform's.
 */
import type { RunRecord } from "../../core/plugin-api/mod.ts";
import type { KvLayout } from "../../plugins/ha-consul/src/kv-layout.ts";
import type { TestConsulDevServer } from "../consul-dev-server.ts";

const base64 = (text: string) => Buffer.from(text).toString("base64");

/** The id of record `n` (0 = oldest) of a history ending now, one a minute. */
export function seededRunId(n: number, count: number, now = Date.now()): string {
  return `${String(now - (count - n) * 60_000).padStart(13, "0")}-${String(n).padStart(8, "0")}`;
}

export function seededSummary(task: string, id: string, n: number): RunRecord {
  const started = Number(id.slice(0, 13));
  return {
    id, task, trigger: { kind: "dependency", detail: "/v1/health/service/web?passing=1&stale=" },
    change: { services: { added: [`web-${n}.node-${n % 20}.dc1`], removed: [], changed: [{ id: `web-${n - 1}.node-3.dc1`, fields: ["address", "port"] }] } },
    outcome: n % 10 === 0 ? "failed" : "applied", plan: { add: 1, change: 1, destroy: 0 },
    ...(n % 10 === 0 ? { error: `Cannot apply task "${task}": terraform apply exited with 1: Error: provider refused the change` } : {}),
    started_at: new Date(started).toISOString(), ended_at: new Date(started + 4200).toISOString(), duration_ms: 4200,
    instance_id: "cts-bench-1", event_id: crypto.randomUUID(), phases_ms: { plan: 1500, apply: 2600 },
  };
}

function seededDetail(task: string, n: number): Pick<RunRecord, "logs" | "resources"> {
  const plan = `Terraform will perform the following actions:\n\n  # module.${task}.terraform_data.seen will be updated in-place\n${"      ~ input = ...\n".repeat(60)}\nPlan: 0 to add, 1 to change, 0 to destroy.\n`;
  const apply = `module.${task}.terraform_data.seen: Modifying...\n${"module.web: Still modifying... [10s elapsed]\n".repeat(40)}Apply complete! Resources: 0 added, 1 changed, 0 destroyed.\n`;
  return {
    logs: { plan: { text: plan, bytes: plan.length }, apply: { text: apply, bytes: apply.length } },
    resources: [{ address: `module.${task}.terraform_data.seen`, action: "update" }, { address: `module.${task}.terraform_data.n[${n}]`, action: "create" }],
  };
}

/**
 * Writes `perTask` records for each task (details only for `detailed` tasks); returns each task's ids,
 * oldest first. Yields between tasks, so a daemon in the same process keeps renewing its session.
 */
export async function seedRunHistory(
  consul: TestConsulDevServer, layout: KvLayout, tasks: readonly string[], perTask: number, detailed: readonly string[] = [],
): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>();
  const now = Date.now();
  for (const task of tasks) {
    const taskIds = Array.from({ length: perTask }, (_, n) => seededRunId(n, perTask, now));
    ids.set(task, taskIds);
    consul.state.write((tx) => {
      taskIds.forEach((id, n) => {
        consul.state.kv.set(tx, { key: layout.runKey(task, id), value: base64(JSON.stringify(seededSummary(task, id, n))) });
        if (detailed.includes(task)) consul.state.kv.set(tx, { key: layout.runDetailKey(task, id), value: base64(JSON.stringify(seededDetail(task, n))) });
      });
      // Nobody watches the history with a blocking query: skipping the wake-up of every prefix of
      // every key (about 70 a key) keeps 200,000 writes to seconds.
      tx.kvKeys.clear();
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return ids;
}

