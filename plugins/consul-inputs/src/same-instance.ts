/**
 * @module Whether two service instances carry the same data (what a task sees and renders).
 *
 * Used to keep the previous object of an unchanged instance when a service's answer is rebuilt:
 * one changed instance among 10 000 then leaves 9 999 objects (and whatever is cached per object)
 * as they were, and the map's change check compares objects instead of serialising everything.
 */
import type { ServiceInstance } from "../../../core/plugin-api/mod.ts";

const SCALARS = [
  "id", "name", "kind", "address", "port", "namespace", "status", "node", "node_id", "node_address", "node_datacenter",
] as const;
const MAPS = ["meta", "node_tagged_addresses", "node_meta", "cts_user_defined_meta"] as const;

export function sameInstance(a: ServiceInstance, b: ServiceInstance): boolean {
  if (a === b) return true;
  for (const field of SCALARS) if (a[field] !== b[field]) return false;
  if (!sameList(a.tags, b.tags)) return false;
  for (const field of MAPS) if (!sameRecord(a[field], b[field])) return false;
  return true;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Same keys in the same order (the order is rendered) with the same values. */
function sameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== other[i] || a[keys[i]!] !== b[keys[i]!]) return false;
  }
  return true;
}
