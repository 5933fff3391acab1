/**
 * @module What a driver reported about a run, made fit for its record: resources capped at 1000
 * (the rest counted), outputs masked and each output's value kept only while all of them stay
 * under 64 KiB (a larger value is replaced by its size), errors without colour codes and masked.
 */
import type { ResourceChange, RunOutput, RunRecord, SecretMasker } from "../../../core/plugin-api/mod.ts";
import { utf8Bytes } from "./run-log-buffer.ts";

export const MAX_RESOURCES = 1000;
export const MAX_OUTPUTS_BYTES = 64 * 1024;

export function cappedResources(resources: readonly ResourceChange[] | undefined): Pick<RunRecord, "resources" | "resources_omitted"> {
  if (!resources) return {};
  const listed = resources.slice(0, MAX_RESOURCES).map(({ address, action }) => ({ address, action }));
  return resources.length > MAX_RESOURCES ? { resources: listed, resources_omitted: resources.length - MAX_RESOURCES } : { resources: listed };
}

/** Masked outputs, in name order; values past the size budget are replaced by their size. */
export function keptOutputs(
  outputs: Readonly<Record<string, RunOutput>> | undefined,
  secrets: SecretMasker,
): Record<string, RunOutput> | undefined {
  if (!outputs) return undefined;
  let budget = MAX_OUTPUTS_BYTES;
  const kept: Record<string, RunOutput> = {};
  for (const name of Object.keys(outputs).sort()) {
    const output = outputs[name]!;
    const key = secrets.mask(name);
    if (output.sensitive) {
      kept[key] = { sensitive: true };
      continue;
    }
    const value = secrets.maskValue(output.value);
    const size = utf8Bytes(JSON.stringify(value) ?? "null");
    if (size > budget) {
      kept[key] = { value_omitted_bytes: size };
      continue;
    }
    budget -= size;
    kept[key] = { value };
  }
  return kept;
}
