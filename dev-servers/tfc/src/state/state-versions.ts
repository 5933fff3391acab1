/**
 * @module Turning Terraform state files into state versions: the outputs and resource count
 * HCP Terraform extracts, and the workspace's current state pointer.
 */
import { md5Hex } from "../../../../core/runtime/digest.ts";
import { newId, newSecret, now } from "./ids.ts";
import type { StateVersionOutputRecord, StateVersionRecord, WorkspaceRecord } from "./records.ts";
import type { TfcState } from "./tfc-state.ts";

export interface ParsedState {
  readonly serial: number | null;
  readonly lineage: string | null;
  readonly terraformVersion: string | null;
  readonly formatVersion: number | null;
  readonly resourceCount: number;
  readonly outputs: readonly Omit<StateVersionOutputRecord, "id">[];
}

type Json = Record<string, unknown>;

function simpleType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  if (typeof value === "boolean") return "bool";
  return typeof value === "object" ? "object" : typeof value;
}

/** Reads a state file; throws when it is not a JSON object. */
export function parseState(bytes: Uint8Array): ParsedState {
  const document = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  if (typeof document !== "object" || document === null || Array.isArray(document)) throw new Error("state is not a JSON object");
  const state = document as Json;
  const outputs = typeof state.outputs === "object" && state.outputs !== null ? state.outputs as Record<string, Json> : {};
  const resources = Array.isArray(state.resources) ? state.resources as Json[] : [];
  const resourceCount = resources
    .filter((resource) => resource.mode === "managed")
    .reduce((total, resource) => total + (Array.isArray(resource.instances) ? resource.instances.length : 0), 0);
  return {
    serial: typeof state.serial === "number" ? state.serial : null,
    lineage: typeof state.lineage === "string" ? state.lineage : null,
    terraformVersion: typeof state.terraform_version === "string" ? state.terraform_version : null,
    formatVersion: typeof state.version === "number" ? state.version : null,
    resourceCount,
    outputs: Object.entries(outputs).map(([name, output]) => ({
      name,
      sensitive: output.sensitive === true,
      type: simpleType(output.value),
      detailedType: output.type ?? null,
      value: output.value ?? null,
    })),
  };
}

export interface NewStateVersion {
  readonly bytes: Uint8Array;
  readonly parsed: ParsedState;
  readonly serial: number;
  readonly lineage: string | null;
  readonly runId: string | null;
}

/** Records a state version and makes it the workspace's current state. */
export function addStateVersion(state: TfcState, ws: WorkspaceRecord, input: NewStateVersion): StateVersionRecord {
  const record: StateVersionRecord = {
    id: newId("sv"),
    workspaceId: ws.id,
    runId: input.runId,
    createdAt: now(),
    serial: input.serial,
    lineage: input.lineage ?? input.parsed.lineage,
    md5: md5Hex(input.bytes),
    state: input.bytes,
    downloadSecret: newSecret(),
    outputs: input.parsed.outputs.map((output) => ({ id: newId("wsout"), ...output })),
    resourceCount: input.parsed.resourceCount,
    terraformVersion: input.parsed.terraformVersion,
    stateFormatVersion: input.parsed.formatVersion,
  };
  state.stateVersions.set(record.id, record);
  ws.currentStateVersionId = record.id;
  return record;
}
