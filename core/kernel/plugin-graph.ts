/**
 * @module The plugin dependency graph: who provides each token, what is missing, what is
 * circular, and the start order. Every problem is found and named before any plugin runs.
 */
import { CtsError, type Token } from "../plugin-api/mod.ts";

export interface GraphPlugin {
  readonly id: string;
  /** Every token the plugin or one of its service factories depends on. */
  readonly needs: readonly Token<unknown>[];
  /** The tokens of its service factories. */
  readonly provides: readonly Token<unknown>[];
}

export interface PluginGraph {
  /** Plugin ids, providers before consumers; ties keep declaration order. */
  readonly order: readonly string[];
  /** Token id → id of the plugin that provides it (`kernel` for core tokens). */
  readonly providerOf: ReadonlyMap<string, string>;
}

export const KERNEL_PROVIDER = "kernel";

export function buildPluginGraph(plugins: readonly GraphPlugin[], preProvided: readonly Token<unknown>[]): PluginGraph {
  const problems: string[] = [];
  const providerOf = new Map<string, string>(preProvided.map((token) => [token.id, KERNEL_PROVIDER]));
  for (const plugin of plugins) {
    for (const token of plugin.provides) {
      const existing = providerOf.get(token.id);
      if (existing === undefined) {
        providerOf.set(token.id, plugin.id);
      } else {
        const first = existing === KERNEL_PROVIDER ? "the kernel" : `"${existing}"`;
        problems.push(`duplicate: "${token.id}" is provided by both ${first} and "${plugin.id}"`);
      }
    }
  }

  const missing = new Map<string, string[]>();
  const edges = new Map<string, string[]>();
  for (const plugin of plugins) {
    const targets: string[] = [];
    for (const token of plugin.needs) {
      const provider = providerOf.get(token.id);
      if (provider === undefined) {
        const consumers = missing.get(token.id) ?? [];
        if (!consumers.includes(plugin.id)) consumers.push(plugin.id);
        missing.set(token.id, consumers);
      } else if (provider !== KERNEL_PROVIDER && provider !== plugin.id && !targets.includes(provider)) {
        targets.push(provider);
      }
    }
    edges.set(plugin.id, targets);
  }
  for (const [tokenId, consumers] of missing) {
    problems.push(`missing: no plugin provides "${tokenId}", needed by ${consumers.map((c) => `"${c}"`).join(", ")}`);
  }
  for (const cycle of findCycles(plugins.map((p) => p.id), edges)) {
    problems.push(`circular: ${cycle.map((id) => `'${id}'`).join(" -> ")}`);
  }
  if (problems.length > 0) {
    throw new CtsError("CTS_ERR_PLUGIN_DEPENDENCY", `Cannot order the plugins by their dependencies:\n  ${problems.join("\n  ")}`);
  }
  return { order: stableTopologicalOrder(plugins.map((p) => p.id), edges), providerOf };
}

/** Each elementary cycle found by a depth-first walk, closed (`a, b, a`), reported once. */
function findCycles(ids: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (id: string): void => {
    const onPath = path.indexOf(id);
    if (onPath >= 0) {
      const cycle = path.slice(onPath);
      // Rotate so the earliest-declared member leads: the same cycle found twice reads the same.
      const start = cycle.indexOf(cycle.reduce((a, b) => (ids.indexOf(a) <= ids.indexOf(b) ? a : b)));
      const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
      const key = rotated.join("\u0000");
      if (!seen.has(key)) {
        seen.add(key);
        cycles.push([...rotated, rotated[0]!]);
      }
      return;
    }
    if (done.has(id)) return;
    path.push(id);
    for (const next of edges.get(id) ?? []) visit(next);
    path.pop();
    done.add(id);
  };
  for (const id of ids) visit(id);
  return cycles;
}

/** Kahn's algorithm, always taking the earliest-declared ready plugin, so the order is stable. */
function stableTopologicalOrder(ids: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < ids.length) {
    const next = ids.find((id) => !placed.has(id) && (edges.get(id) ?? []).every((dep) => placed.has(dep)));
    if (next === undefined) throw new Error("Cannot order the plugins: cycle left after the cycle check");
    order.push(next);
    placed.add(next);
  }
  return order;
}
