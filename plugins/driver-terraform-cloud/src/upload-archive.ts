/**
 * @module The configuration version's tar.gz, written with npm `tar`: every file with its exact
 * bytes and permission bits (a module's `hello.sh` stays executable, a binary file stays byte for
 * byte), directories, and symbolic links that stay inside the upload. Entries are sorted and dated
 * 0, so equal files give equal bytes.
 */
import { Header, Pack, ReadEntry } from "tar";
import { concatBytes, sha256Hex } from "./bytes.ts";

export type UploadEntry =
  | { readonly path: string; readonly kind: "file"; readonly mode: number; readonly bytes: Uint8Array }
  | { readonly path: string; readonly kind: "directory"; readonly mode: number }
  | { readonly path: string; readonly kind: "symlink"; readonly mode: number; readonly target: string };

const EPOCH = new Date(0);
const byPath = (a: UploadEntry, b: UploadEntry): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const encoder = new TextEncoder();

/** A generated text file (the root module), readable by everyone, written by its owner. */
export function textEntry(path: string, text: string): UploadEntry {
  return { path, kind: "file", mode: 0o644, bytes: encoder.encode(text) };
}

function tarEntry(entry: UploadEntry): ReadEntry {
  const type = entry.kind === "file" ? "File" : entry.kind === "directory" ? "Directory" : "SymbolicLink";
  const header = new Header({
    path: entry.kind === "directory" ? `${entry.path}/` : entry.path,
    mode: entry.mode,
    size: entry.kind === "file" ? entry.bytes.length : 0,
    type,
    mtime: EPOCH,
    ...(entry.kind === "symlink" ? { linkpath: entry.target } : {}),
  });
  const read = new ReadEntry(header);
  // minipass takes any Uint8Array (its types say Buffer, which only Node has globally).
  if (entry.kind === "file") read.end(entry.bytes as never);
  else read.end();
  return read;
}

export async function tarGzOf(entries: readonly UploadEntry[]): Promise<Uint8Array> {
  const pack = new Pack({ gzip: true, portable: true });
  const chunks: Uint8Array[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    pack.on("end", () => resolve());
    pack.on("error", reject);
  });
  for (const entry of [...entries].sort(byPath)) pack.add(tarEntry(entry));
  pack.end();
  await done;
  return concatBytes(chunks);
}

/** A hash of what the entries hold (paths, kinds, modes, bytes, link targets), whatever gzip makes of them. */
export async function entriesHash(entries: readonly UploadEntry[]): Promise<string> {
  const lines: string[] = [];
  for (const entry of [...entries].sort(byPath)) {
    const content = entry.kind === "file" ? await sha256Hex(entry.bytes) : entry.kind === "symlink" ? entry.target : "";
    lines.push(`${entry.kind} ${entry.mode.toString(8)} ${JSON.stringify(entry.path)} ${content}`);
  }
  return await sha256Hex(lines.join("\n"));
}
