/** @module CTS-style field paths (`task[1].condition.services.regexp`) and conversion from JSON pointers. */

export function childPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return base === "" ? key : `${base}.${key}`;
}

/**
 * Converts an ajv instance path (`/task/1/condition/services/regexp`) to CTS style. Numeric segments
 * under an array become indexes; `offsets` shifts the index of top-level lists so that a file's
 * second task is reported as the config's n-th task.
 */
export function pointerToPath(pointer: string, offsets: Readonly<Record<string, number>> = {}): string {
  const segments = pointer.split("/").slice(1).map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  let path = "";
  // A numeric segment is taken as a list index (the config has no numeric map keys worth the ambiguity).
  segments.forEach((segment, index) => {
    if (/^\d+$/.test(segment) && index > 0) {
      const offset = index === 1 ? offsets[segments[0]!] ?? 0 : 0;
      path = childPath(path, Number(segment) + offset);
    } else {
      path = childPath(path, segment);
    }
  });
  return path;
}
