/**
 * @module What a notification says: a JSON body carrying the run record, or the configured
 * template with `{{field}}` placeholders filled in (a Slack or Teams message). Everything passes
 * through the daemon's secret masker first, so no secret the daemon knows leaves in a body.
 */
import type { RunRecord, SecretMasker } from "../../../core/plugin-api/mod.ts";
import type { RunStatus } from "./notify-policy.ts";

export interface Notification {
  readonly event: "run.ended";
  /** Stays the same across retries: receivers drop duplicates by it. */
  readonly delivery_id: string;
  readonly task: string;
  readonly status: RunStatus;
  readonly previous_status?: RunStatus;
  readonly run: RunRecord;
}

export function notificationOf(run: RunRecord, status: RunStatus, previous: RunStatus | undefined, masker: SecretMasker): Notification {
  return masker.maskValue({
    event: "run.ended",
    delivery_id: crypto.randomUUID(),
    task: run.task,
    status,
    ...(previous !== undefined ? { previous_status: previous } : {}),
    run,
  });
}

/** The placeholders a template may use; each value is JSON-escaped, to sit inside a JSON string. */
function fields(notification: Notification): Record<string, string> {
  const { run } = notification;
  return {
    task: notification.task,
    status: notification.status,
    previous_status: notification.previous_status ?? "",
    outcome: run.outcome,
    error: run.error ?? "",
    run_id: run.id,
    trigger: run.trigger.detail ? `${run.trigger.kind}: ${run.trigger.detail}` : run.trigger.kind,
    started_at: run.started_at,
    ended_at: run.ended_at ?? "",
    duration_ms: String(run.duration_ms ?? ""),
    instance_id: run.instance_id,
    delivery_id: notification.delivery_id,
  };
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The request body: the notification as JSON, or the template with its placeholders filled. */
export function renderBody(notification: Notification, template: string | undefined, masker: SecretMasker): string {
  const json = JSON.stringify(notification);
  if (template === undefined) return masker.mask(json);
  const values = fields(notification);
  const text = template.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === "json") return json;
    const value = values[name];
    // JSON.stringify escapes quotes, backslashes and control characters; the quotes come off.
    return value === undefined ? whole : JSON.stringify(value).slice(1, -1);
  });
  return masker.mask(text);
}
