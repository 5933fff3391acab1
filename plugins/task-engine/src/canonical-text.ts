/**
 * @module The canonical JSON text of a run's inputs without rebuilding it on every run: the same
 * text as `canonicalJson` (so stored fingerprints stay valid across an upgrade), but the text of
 * each deeply frozen object or array is kept per object and reused.
 *
 * Why: the services map hands out one frozen object per unchanged instance, across answers and
 * across the tasks that watch it, yet every run sorted and serialised every instance again: at
 * 1,000 instances a task that cost 3–12 ms a run (Deno, loaded 2-core machine), now 0.3 ms plus the
 * SHA-256; at 10,000, 120–290 ms against 30–75 ms with the hash. The price is the kept text,
 * about 0.8 KB of heap per distinct instance (the text itself is ~350 bytes of it).
 */

/**
 * Text of the outermost frozen objects (the instances): a nested frozen object (tags, meta) is not
 * kept apart, as its text is already inside its parent's and a second copy would double the cost
 * (about 400 bytes of heap per instance instead of 1 KB).
 */
const texts = new WeakMap<object, string>();

interface Piece {
  /** The canonical JSON, or undefined where JSON.stringify leaves the value out (undefined, functions, symbols). */
  readonly text: string | undefined;
  /** Whether the value can never change, so its text may be kept. */
  readonly fixed: boolean;
  /** A fixed object whose text was just built (not read from the cache): its parent decides whether to keep it. */
  readonly built?: object;
}

const OMITTED: Piece = { text: undefined, fixed: true };

/** Equals `JSON.stringify(sortKeys(value))` (input-hash.ts) for every value, cached or not. */
export function canonicalText(value: unknown): string | undefined {
  const top = piece(value);
  if (top.built) texts.set(top.built, top.text!);
  return top.text;
}

function piece(value: unknown): Piece {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return { text: JSON.stringify(value), fixed: true };
    case "undefined":
    case "function":
    case "symbol":
      return OMITTED;
    case "bigint":
      // JSON.stringify throws on bigint: keep that behaviour (inputs are JSON data).
      return { text: JSON.stringify(value), fixed: true };
  }
  if (value === null) return { text: "null", fixed: true };
  const object = value as object;
  const cached = texts.get(object);
  if (cached !== undefined) return { text: cached, fixed: true };
  // sortKeys leaves objects with toJSON (a Date) to JSON.stringify, keys in their own order.
  if (typeof (object as { toJSON?: unknown }).toJSON === "function") return { text: JSON.stringify(object), fixed: false };
  const children: Piece[] = [];
  const text = Array.isArray(object) ? arrayText(object, children) : objectText(object as Record<string, unknown>, children);
  // Fixed only when every child is and this object, too, can never change.
  if (children.every((child) => child.fixed) && plainAndFrozen(object)) return { text, fixed: true, built: object };
  // Not fixed: its fixed children are the outermost ones, so they are the ones kept.
  for (const child of children) if (child.built) texts.set(child.built, child.text!);
  return { text, fixed: false };
}

/** Braces are joined in rather than concatenated, so a kept text is one flat string, not a rope. */
function arrayText(array: readonly unknown[], children: Piece[]): string {
  if (array.length === 0) return "[]";
  const parts: string[] = new Array(array.length);
  for (let i = 0; i < array.length; i++) {
    const item = piece(array[i]);
    children.push(item);
    parts[i] = item.text ?? "null";
  }
  parts[0] = `[${parts[0]}`;
  parts[parts.length - 1] = `${parts[parts.length - 1]}]`;
  return parts.join(",");
}

function objectText(record: Record<string, unknown>, children: Piece[]): string {
  const parts: string[] = [];
  for (const key of jsonKeyOrder(Object.keys(record).sort())) {
    const item = piece(record[key]);
    children.push(item);
    if (item.text !== undefined) parts.push(`${JSON.stringify(key)}:${item.text}`);
  }
  if (parts.length === 0) return "{}";
  parts[0] = `{${parts[0]}`;
  parts[parts.length - 1] = `${parts[parts.length - 1]}}`;
  return parts.join(",");
}

/**
 * The order JSON.stringify gives the keys of an object built in `sorted` order: array-index keys
 * ("0", "10") always come first, ascending by value, then the others as inserted.
 */
function jsonKeyOrder(sorted: string[]): string[] {
  let indices: string[] | undefined;
  for (const key of sorted) if (isArrayIndex(key)) (indices ??= []).push(key);
  if (!indices) return sorted;
  indices.sort((a, b) => Number(a) - Number(b));
  return [...indices, ...sorted.filter((key) => !isArrayIndex(key))];
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4294967295;
}

/** Cacheable only when nothing can change it: frozen, a plain object or array, no getters. */
function plainAndFrozen(object: object): boolean {
  if (!Object.isFrozen(object)) return false;
  const proto = Object.getPrototypeOf(object);
  if (proto !== null && proto !== Object.prototype && proto !== Array.prototype) return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(object))) {
    if (descriptor.get || descriptor.set) return false;
  }
  return true;
}
