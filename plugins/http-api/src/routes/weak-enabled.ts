/**
 * @module CTS decodes its PATCH body weakly (mapstructure's WeaklyTypedInput): `"enabled": "true"`,
 * `"1"` or `1` enable and `"false"`, `"0"`, `""` or `0` disable, as Go's strconv.ParseBool and
 * number rules read them. Anything else is left for the schema to refuse.
 */
const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False", ""]);

export function weakEnabled(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("enabled" in body)) return body;
  const value = (body as { enabled: unknown }).enabled;
  let enabled: unknown = value;
  if (typeof value === "string" && TRUE.has(value)) enabled = true;
  else if (typeof value === "string" && FALSE.has(value)) enabled = false;
  else if (typeof value === "number") enabled = value !== 0;
  return { ...body, enabled };
}
