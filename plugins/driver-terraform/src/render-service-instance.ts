/**
 * @module One `services` entry of terraform.tfvars, written straight from a ServiceInstance: the
 * same bytes the generic HCL encoder gives for the instance's protocol-v0 object, without building
 * that object and without measuring its keys each time.
 *
 * Why: a task over 10 000 instances renders 10 000 of these per run; the generic encoder spent most
 * of its time on per-instance objects, per-key lookups and a string array per value. Here the
 * attribute layout (names, `=` alignment) depends only on which of the four maps are empty, so
 * the 16 possible layouts are computed once. Anything outside the expected shape (a third-party
 * source handing a number where a string belongs, a nested map value) takes the generic path, so
 * the output is always exactly the generic encoder's.
 */
import type { ServiceInstance } from "../../../core/plugin-api/mod.ts";
import { HclByteWriter, hclBytes } from "./hcl-byte-writer.ts";
import { encodeHclValue, hclColumns, hclNumber, hclObjectKey } from "./hcl-value.ts";

/** The instance's attributes in protocol-v0 order (the insertion order is what gets written). */
export function serviceObject(instance: ServiceInstance): Record<string, unknown> {
  return {
    id: instance.id,
    name: instance.name,
    kind: instance.kind,
    address: instance.address,
    port: instance.port,
    meta: instance.meta,
    tags: instance.tags,
    namespace: instance.namespace,
    status: instance.status,
    node: instance.node,
    node_id: instance.node_id,
    node_address: instance.node_address,
    node_datacenter: instance.node_datacenter,
    node_tagged_addresses: instance.node_tagged_addresses,
    node_meta: instance.node_meta,
    cts_user_defined_meta: instance.cts_user_defined_meta,
  };
}

const ATTRIBUTES = Object.keys(serviceObject({} as ServiceInstance));
const MAPS = ["meta", "node_tagged_addresses", "node_meta", "cts_user_defined_meta"] as const;
/** Attribute indentation inside an entry (entries start at 2, as in CTS's template). */
const INDENT = "    ";
const MAP_INDENT = "      ";

/**
 * Per combination of empty maps (bit i set: MAPS[i] is non-empty, so written over several lines),
 * the text before each attribute's value: line break, indentation, name, alignment padding, ` = `.
 */
const layouts: (readonly Uint8Array[] | undefined)[] = [];

function layout(multiLine: number): readonly Uint8Array[] {
  let prefixes = layouts[multiLine];
  if (prefixes) return prefixes;
  const isMulti = (name: string) => {
    const at = (MAPS as readonly string[]).indexOf(name);
    return at >= 0 && (multiLine & (1 << at)) !== 0;
  };
  const out: string[] = [];
  // `=` is aligned over each run of single-line values; a multi-line value ends the run (hclwrite).
  let i = 0;
  while (i < ATTRIBUTES.length) {
    if (isMulti(ATTRIBUTES[i]!)) {
      out.push(`\n${INDENT}${ATTRIBUTES[i]} = `);
      i++;
      continue;
    }
    let end = i;
    let width = 0;
    while (end < ATTRIBUTES.length && !isMulti(ATTRIBUTES[end]!)) width = Math.max(width, ATTRIBUTES[end++]!.length);
    for (; i < end; i++) out.push(`\n${INDENT}${ATTRIBUTES[i]}${" ".repeat(width - ATTRIBUTES[i]!.length)} = `);
  }
  // The entry's opening brace goes with the first attribute: one constant fewer to copy.
  out[0] = `{${out[0]}`;
  layouts[multiLine] = prefixes = out.map(hclBytes);
  return prefixes;
}

/** An encoded map key: its text, its width, and its line prefixes by alignment width. */
interface MapKey {
  readonly text: string;
  readonly columns: number;
  /** `\n`, indentation, key, padding to the index's width and ` = `, as bytes. */
  readonly prefixes: (Uint8Array | undefined)[];
}

/** Map keys repeat across instances (`version`, `lan`, `wan`): encode each once with its width. */
const mapKeys = new Map<string, MapKey>();

function mapKey(key: string): MapKey {
  let encoded = mapKeys.get(key);
  if (encoded === undefined) {
    const text = hclObjectKey(key);
    encoded = { text, columns: hclColumns(text), prefixes: [] };
    if (mapKeys.size > 4096) mapKeys.clear();
    mapKeys.set(key, encoded);
  }
  return encoded;
}

function mapLinePrefix(encoded: MapKey, width: number): Uint8Array {
  return encoded.prefixes[width] ??= hclBytes(`\n${MAP_INDENT}${encoded.text}${" ".repeat(width - encoded.columns)} = `);
}

const OPEN_BRACE = hclBytes("{");
const MAP_CLOSE = hclBytes(`\n${INDENT}}`);
const EMPTY_MAP = hclBytes("{}");
const OPEN_LIST = hclBytes("[");
const LIST_SEPARATOR = hclBytes(", ");
const CLOSE_LIST = hclBytes("]");
const ENTRY_CLOSE = hclBytes("\n  }");

/** A non-empty string map at attribute level, exactly as the generic encoder writes it. */
function writeStringMap(w: HclByteWriter, map: Readonly<Record<string, string>>, keys: readonly string[]): void {
  let width = 0;
  for (const key of keys) {
    const columns = mapKey(key).columns;
    if (columns > width) width = columns;
  }
  w.bytes(OPEN_BRACE);
  for (const key of keys) {
    w.quotedAfter(mapLinePrefix(mapKey(key), width), map[key]!);
  }
  w.bytes(MAP_CLOSE);
}

/** The map's keys when it is a plain map of strings (what the fast path writes), else undefined. */
function stringMapKeys(value: unknown): string[] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  for (const key of keys) if (typeof (value as Record<string, unknown>)[key] !== "string") return undefined;
  return keys;
}

/** The keys of the four maps when the instance has the expected shape, else undefined (generic path). */
function expectedShape(instance: ServiceInstance): string[][] | undefined {
  // Spelled out rather than looped over names: one property read each, no keyed lookups.
  if (typeof instance.id !== "string" || typeof instance.name !== "string" || typeof instance.kind !== "string" ||
    typeof instance.address !== "string" || typeof instance.namespace !== "string" ||
    typeof instance.status !== "string" || typeof instance.node !== "string" || typeof instance.node_id !== "string" ||
    typeof instance.node_address !== "string" || typeof instance.node_datacenter !== "string" ||
    typeof instance.port !== "number" || !Array.isArray(instance.tags)) return undefined;
  for (const tag of instance.tags) if (typeof tag !== "string") return undefined;
  const meta = stringMapKeys(instance.meta);
  const tagged = stringMapKeys(instance.node_tagged_addresses);
  const nodeMeta = stringMapKeys(instance.node_meta);
  const userMeta = stringMapKeys(instance.cts_user_defined_meta);
  if (meta === undefined || tagged === undefined || nodeMeta === undefined || userMeta === undefined) return undefined;
  return [meta, tagged, nodeMeta, userMeta];
}

/**
 * Rendered entries (`\n  "key" = {...},`) of deeply frozen instances. The services source
 * freezes its instances and keeps the object of every unchanged one across answers, so a run
 * after one change among 10 000 instances renders one entry and copies 9 999 (the bytes live as
 * long as the instance does). Freezing is permanent, so a cached entry never needs re-checking.
 */
const renderedEntries = new WeakMap<ServiceInstance, { readonly key: string; readonly bytes: Uint8Array }>();

function isDeeplyFrozen(instance: ServiceInstance): boolean {
  return Object.isFrozen(instance) && Object.isFrozen(instance.tags) && Object.isFrozen(instance.meta) &&
    Object.isFrozen(instance.node_tagged_addresses) && Object.isFrozen(instance.node_meta) &&
    Object.isFrozen(instance.cts_user_defined_meta);
}

const ENTRY_START = hclBytes("\n  ");
const ENTRY_EQUALS = hclBytes(" = ");
const ENTRY_END = hclBytes(",");

/** Writes one line of the `services` map, `\n  "key" = {...},`, into the writer of the whole file. */
export function writeServiceEntry(w: HclByteWriter, key: string, instance: ServiceInstance): void {
  const cached = renderedEntries.get(instance);
  if (cached !== undefined && cached.key === key) {
    w.bytes(cached.bytes);
    return;
  }
  const mark = w.length;
  w.quotedAfter(ENTRY_START, key);
  w.bytes(ENTRY_EQUALS);
  writeFresh(w, instance);
  w.bytes(ENTRY_END);
  if (typeof instance === "object" && instance !== null && isDeeplyFrozen(instance)) {
    renderedEntries.set(instance, { key, bytes: w.bytesSince(mark) });
  }
}

/**
 * Writes the value of one `services` entry (from `{` to `}`): the same text as
 * `encodeHclValue(serviceObject(instance), 2)`.
 */
export function writeServiceInstance(w: HclByteWriter, instance: ServiceInstance): void {
  writeFresh(w, instance);
}

function writeFresh(w: HclByteWriter, instance: ServiceInstance): void {
  const mapKeyLists = expectedShape(instance);
  if (mapKeyLists === undefined) {
    w.text(encodeHclValue(serviceObject(instance), 2));
    return;
  }
  let multiLine = 0;
  for (let i = 0; i < mapKeyLists.length; i++) if (mapKeyLists[i]!.length > 0) multiLine |= 1 << i;
  const p = layout(multiLine);
  w.quotedAfter(p[0]!, instance.id);
  w.quotedAfter(p[1]!, instance.name);
  w.quotedAfter(p[2]!, instance.kind);
  w.quotedAfter(p[3]!, instance.address);
  w.bytes(p[4]!);
  w.text(hclNumber(instance.port));
  w.bytes(p[5]!);
  writeMap(w, instance, mapKeyLists, 0);
  w.bytes(p[6]!);
  if (instance.tags.length === 0) w.bytes(OPEN_LIST);
  for (let i = 0; i < instance.tags.length; i++) w.quotedAfter(i > 0 ? LIST_SEPARATOR : OPEN_LIST, instance.tags[i]!);
  w.bytes(CLOSE_LIST);
  w.quotedAfter(p[7]!, instance.namespace);
  w.quotedAfter(p[8]!, instance.status);
  w.quotedAfter(p[9]!, instance.node);
  w.quotedAfter(p[10]!, instance.node_id);
  w.quotedAfter(p[11]!, instance.node_address);
  w.quotedAfter(p[12]!, instance.node_datacenter);
  w.bytes(p[13]!);
  writeMap(w, instance, mapKeyLists, 1);
  w.bytes(p[14]!);
  writeMap(w, instance, mapKeyLists, 2);
  w.bytes(p[15]!);
  writeMap(w, instance, mapKeyLists, 3);
  w.bytes(ENTRY_CLOSE);
}

function writeMap(w: HclByteWriter, instance: ServiceInstance, keyLists: readonly string[][], i: number): void {
  if (keyLists[i]!.length === 0) w.bytes(EMPTY_MAP);
  else writeStringMap(w, instance[MAPS[i]!], keyLists[i]!);
}

/** One entry's value as a string (see writeServiceInstance). */
export function renderServiceInstance(instance: ServiceInstance): string {
  const w = new HclByteWriter();
  writeServiceInstance(w, instance);
  return w.finish();
}
