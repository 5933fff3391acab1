/**
 * @module A run record's detail (output per phase, resources, outputs) made to fit one Consul KV
 * value (512 KiB by default). The engine bounds each part already; JSON escaping can still take
 * the sum past the limit, so the largest log loses its middle (the text says how much) until the
 * value fits, then output values are replaced by their size, then resources are cut to 100.
 */
import type { RunLog, RunOutput, RunPhase, RunRecord } from "../../../core/plugin-api/mod.ts";

/** Below Consul's default kv_max_value_size (512 KiB), with room for the request's framing. */
export const MAX_DETAIL_BYTES = 500 * 1024;

type Detail = Pick<RunRecord, "logs" | "resources" | "resources_omitted" | "outputs">;

const utf8 = new TextEncoder();
const size = (value: unknown) => utf8.encode(JSON.stringify(value)).byteLength;

/** `log` with the middle of its text cut to about `keep` characters. */
function shortened(log: RunLog, keep: number): RunLog {
  const head = Math.floor(keep / 4);
  const tail = keep - head;
  const dropped = log.text.slice(head, log.text.length - tail);
  const omitted = (log.omitted_bytes ?? 0) + utf8.encode(dropped).byteLength;
  const note = `\n… ${omitted.toLocaleString("en-US")} bytes of output left out here (Consul value limit) …\n`;
  return { text: log.text.slice(0, head) + note + log.text.slice(log.text.length - tail), bytes: log.bytes, omitted_bytes: omitted };
}

/** The detail as JSON, no larger than `limit` bytes. */
export function fittedDetail(detail: Detail, limit = MAX_DETAIL_BYTES): string {
  let fitted: Detail = detail;
  for (let round = 0; round < 16 && size(fitted) > limit; round++) {
    const logs = { ...fitted.logs } as Partial<Record<RunPhase, RunLog>>;
    const largest = (Object.keys(logs) as RunPhase[]).sort((a, b) => logs[b]!.text.length - logs[a]!.text.length)[0];
    if (!largest || logs[largest]!.text.length < 4096) break;
    logs[largest] = shortened(logs[largest]!, Math.floor(logs[largest]!.text.length / 2));
    fitted = { ...fitted, logs };
  }
  if (size(fitted) > limit && fitted.outputs) {
    const outputs: Record<string, RunOutput> = {};
    for (const [name, output] of Object.entries(fitted.outputs)) {
      outputs[name] = output.value === undefined ? output : { value_omitted_bytes: size(output.value) };
    }
    fitted = { ...fitted, outputs };
  }
  if (size(fitted) > limit && fitted.resources && fitted.resources.length > 100) {
    const omitted = (fitted.resources_omitted ?? 0) + fitted.resources.length - 100;
    fitted = { ...fitted, resources: fitted.resources.slice(0, 100), resources_omitted: omitted };
  }
  return JSON.stringify(fitted);
}
