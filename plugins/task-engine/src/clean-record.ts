/**
 * @module What the engine keeps or publishes (CTS task events, run records) is cleaned first: colour
 * codes out of error texts (a third-party driver may pass a tool's coloured output on), and every
 * known secret masked in every string, before anything is stored.
 */
import stripAnsi from "strip-ansi";
import type { RunRecord, SecretMasker, TaskEvent } from "../../../core/plugin-api/mod.ts";

export type RecordCleaner = Pick<SecretMasker, "maskValue">;

export function cleanEvent(event: TaskEvent, secrets: RecordCleaner): TaskEvent {
  const error = event.error ? { ...event.error, message: stripAnsi(event.error.message) } : event.error;
  return secrets.maskValue({ ...event, error });
}

export function cleanRecord(record: RunRecord, secrets: RecordCleaner): RunRecord {
  return secrets.maskValue(record.error !== undefined ? { ...record, error: stripAnsi(record.error) } : record);
}
