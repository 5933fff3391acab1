/** @module What every view needs besides its record: the state for related names, and absolute URLs. */
import type { TfcState } from "../state/tfc-state.ts";

export interface ViewContext {
  readonly state: TfcState;
  /** `scheme://host:port` as the client reached the server; absolute URLs (uploads, logs) start with it. */
  readonly origin: string;
  /** 1-based position of a run waiting for capacity, 0 when it is not waiting. */
  positionInQueue(runId: string): number;
}

/** `created_at` → `created-at`; status names become timestamp keys (`plan_queued` → `plan-queued-at`). */
export function timestampKey(status: string): string {
  return `${status.replaceAll("_", "-")}-at`;
}
