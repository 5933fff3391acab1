/**
 * @module Prometheus text exposition format 0.0.4: metric families rendered as `# HELP`,
 * `# TYPE` and `name{labels} value` lines, with the format's escaping rules.
 */
import type { MetricFamily, MetricSample } from "../../../core/plugin-api/mod.ts";

// The family shapes are the contract's: other plugins contribute families (metricsSourceRegistryToken).
export type { MetricFamily, MetricType } from "../../../core/plugin-api/mod.ts";
export type Sample = MetricSample;

export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Label values escape backslash, double quote and newline. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** HELP text escapes backslash and newline (quotes stay as they are). */
export function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** Go's float spellings, which Prometheus parses. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return "";
  return `{${entries.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`;
}

/** Renders families in order; a family without samples still announces its HELP and TYPE. */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) lines.push(`${family.name}${sample.suffix ?? ""}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
  }
  return `${lines.join("\n")}\n`;
}
