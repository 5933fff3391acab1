/** @module The `tfc-dev` command's fault-injection flags, to and from TfcDevFaults. */
import type { CliFlagSpec } from "../../core/plugin-api/mod.ts";
import type { TfcDevFaults } from "./src/http/faults.ts";

export const faultFlags: readonly CliFlagSpec[] = [
  { name: "fault-429-every", type: "int", placeholder: "<n>", help: "Answer every nth API request with 429." },
  { name: "fault-429-reset", type: "string", default: "1s", placeholder: "<duration>", help: "X-RateLimit-Reset of -fault-429-every answers." },
  { name: "fault-5xx-every", type: "int", placeholder: "<n>", help: "Answer every nth API request with -fault-5xx-status." },
  { name: "fault-5xx-status", type: "int", default: 503, placeholder: "<code>", help: "Status of -fault-5xx-every answers." },
  { name: "queue-delay", type: "string", placeholder: "<duration>", help: "Keep runs this long in plan_queued and apply_queued." },
  { name: "fault-upload-error-every", type: "int", placeholder: "<n>", help: "Fail every nth configuration upload (the version errors)." },
  { name: "fault-policy-override", type: "bool", help: "Stop runs with changes in policy_override, as a soft-failed policy does." },
];

function positive(flags: Record<string, unknown>, name: string): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) throw new Error(`-${name} must be a positive integer`);
  return value;
}

function duration(flags: Record<string, unknown>, name: string, parse: (text: string) => number | undefined): number | undefined {
  const text = flags[name];
  if (text === undefined) return undefined;
  const ms = parse(String(text));
  if (ms === undefined || ms < 0) throw new Error(`-${name} must be a duration such as 500ms or 2s, got ${JSON.stringify(text)}`);
  return ms;
}

export function faultsFromFlags(flags: Record<string, unknown>, parseDuration: (text: string) => number | undefined): TfcDevFaults {
  const status = positive(flags, "fault-5xx-status") ?? 503;
  if (status < 500 || status > 599) throw new Error(`-fault-5xx-status must be a 5xx status, got ${status}`);
  const resetMs = duration(flags, "fault-429-reset", parseDuration) ?? 1000;
  const optional = {
    rateLimitEvery: positive(flags, "fault-429-every"),
    serverErrorEvery: positive(flags, "fault-5xx-every"),
    queueDelayMs: duration(flags, "queue-delay", parseDuration),
    uploadErrorEvery: positive(flags, "fault-upload-error-every"),
    policyOverride: flags["fault-policy-override"] === true ? true : undefined,
  };
  return {
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    rateLimitResetSeconds: resetMs / 1000,
    serverErrorStatus: status,
  };
}

/** One line for the start banner. */
export function describeFaults(faults: TfcDevFaults): string {
  const parts: string[] = [];
  if (faults.rateLimitEvery) parts.push(`429 every ${faults.rateLimitEvery} requests (reset ${faults.rateLimitResetSeconds ?? 1}s)`);
  if (faults.serverErrorEvery) parts.push(`${faults.serverErrorStatus ?? 503} every ${faults.serverErrorEvery} requests`);
  if (faults.queueDelayMs) parts.push(`queue delay ${faults.queueDelayMs}ms`);
  if (faults.uploadErrorEvery) parts.push(`upload error every ${faults.uploadErrorEvery} uploads`);
  if (faults.policyOverride) parts.push("runs stop for a policy override");
  return parts.length > 0 ? parts.join(", ") : "none";
}
