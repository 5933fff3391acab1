/**
 * @module A readable plan: "Plan: 1 to add, 0 to change, 0 to destroy." and one line per resource
 * address with its action, from either the plain log or the structured (JSON lines) log HCP
 * Terraform writes; CTS printed the raw JSON lines (CTS GH-425).
 */

export interface PlanCounts {
  readonly add: number;
  readonly change: number;
  readonly destroy: number;
}

const TEXT_ACTIONS: readonly [RegExp, string][] = [
  [/^# (\S+) will be created/, "create"],
  [/^# (\S+) will be updated in-place/, "update"],
  [/^# (\S+) will be destroyed/, "delete"],
  [/^# (\S+) must be replaced/, "replace"],
  [/^# (\S+) will be replaced/, "replace"],
  [/^# (\S+) will be read during apply/, "read"],
];

/** Address → action, in the order the plan lists them. */
export function plannedChanges(log: string): [string, string][] {
  const out = new Map<string, string>();
  for (const raw of log.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("{")) {
      try {
        const entry = JSON.parse(line) as { type?: string; change?: { action?: string; resource?: { addr?: string } } };
        if (entry.type === "planned_change" && entry.change?.resource?.addr) out.set(entry.change.resource.addr, entry.change.action ?? "change");
      } catch {
        // not a JSON line
      }
      continue;
    }
    for (const [pattern, action] of TEXT_ACTIONS) {
      const match = pattern.exec(line);
      if (match) out.set(match[1]!, action);
    }
  }
  return [...out];
}

const SYMBOL: Readonly<Record<string, string>> = { create: "+", update: "~", delete: "-", replace: "-/+", read: "<=" };

export function planSummary(counts: PlanCounts, log: string, url: string): string {
  const changes = plannedChanges(log);
  const lines = [
    counts.add + counts.change + counts.destroy === 0 && changes.length === 0
      ? "No changes. Your infrastructure matches the configuration."
      : `Plan: ${counts.add} to add, ${counts.change} to change, ${counts.destroy} to destroy.`,
    ...changes.map(([address, action]) => `  ${SYMBOL[action] ?? "~"} ${address} (${action})`),
    `Run: ${url}`,
  ];
  return lines.join("\n");
}
