/**
 * @module consul-template's KV v2 path rule, which CTS inherits: `{{ with secret "secret/app" }}`
 * in a KV version 2 mount reads `secret/data/app`. Vault tells which mount a path is in (and its
 * version) through `sys/internal/ui/mounts/<path>`; a path already under `data/` is left alone.
 */

export interface MountInfo {
  /** With a trailing slash: `secret/`. */
  readonly path: string;
  readonly version: string;
}

export function kvV2DataPath(path: string, mount: MountInfo | undefined): string {
  const clean = path.replace(/^\/+/, "");
  if (!mount || mount.version !== "2" || !clean.startsWith(mount.path)) return clean;
  const rest = clean.slice(mount.path.length);
  return rest.startsWith("data/") ? clean : `${mount.path}data/${rest}`;
}
