/**
 * @module Which workspace Terraform versions this server can serve: it runs one binary, so a run
 * whose workspace asks for another version is refused (the run errors with the reason in its plan
 * log) instead of silently running the wrong version. `latest`, the binary's own version and
 * constraints it meets (`~> 1.9`, `>= 1.5, < 2.0`, HashiCorp's syntax) are served.
 */

type Version = readonly [number, number, number];

/** `1.9` → [1, 9, 0] and the count of segments written; undefined when not a version. */
function parse(text: string): { readonly version: Version; readonly segments: number } | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  const segments = match[3] !== undefined ? 3 : match[2] !== undefined ? 2 : 1;
  return { version: [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)], segments };
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The first version `~> v` no longer allows: the segment before the last one written goes up. */
function pessimisticBound(version: Version, segments: number): Version {
  if (segments <= 2) return [version[0] + 1, 0, 0];
  return [version[0], version[1] + 1, 0];
}

function meets(binary: Version, part: string): boolean {
  const match = /^(~>|>=|<=|!=|>|<|=)?\s*(.+)$/.exec(part.trim());
  const wanted = match ? parse(match[2]!) : undefined;
  if (!match || !wanted) return false;
  const order = compare(binary, wanted.version);
  switch (match[1] ?? "=") {
    case "~>": return order >= 0 && compare(binary, pessimisticBound(wanted.version, wanted.segments)) < 0;
    case ">=": return order >= 0;
    case "<=": return order <= 0;
    case ">": return order > 0;
    case "<": return order < 0;
    case "!=": return order !== 0;
    default: return order === 0;
  }
}

/** Why a run asking for `wanted` cannot run on `binary` (e.g. `1.11.4`), or undefined when it can. */
export function unservableVersion(binary: string, wanted: string): string | undefined {
  const own = parse(binary);
  if (wanted === "latest" || wanted === "" || !own) return undefined;
  if (wanted.split(",").every((part) => meets(own.version, part))) return undefined;
  return `this server runs one Terraform, ${binary}, and the workspace asks for Terraform ${wanted}: ` +
    `set the workspace's terraform-version to ${binary}, "latest" or a constraint ${binary} meets ` +
    `(or start tfc-dev with -terraform-binary=<a ${wanted} binary>)`;
}
