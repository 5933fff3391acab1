/**
 * @module When a schedule task runs next. CTS cron (hashicorp/cronexpr) reads a 6-field
 * expression as "5 fields + year" while croner reads "seconds + 5 fields", so a 6-field
 * expression gets a leading `0` seconds field, as the schedule condition does it.
 */
import { Cron } from "croner";

/** The next run time after now, or undefined when the expression never fires again or does not parse. */
export function nextRunOf(cron: string, now = new Date()): Date | undefined {
  const fields = cron.trim().split(/\s+/);
  const pattern = fields.length === 6 ? `0 ${fields.join(" ")}` : cron.trim();
  try {
    const job = new Cron(pattern, { paused: true });
    const next = job.nextRun(now);
    job.stop();
    return next ?? undefined;
  } catch {
    // The config loader has rejected bad expressions already; a task created through the API too.
    return undefined;
  }
}
