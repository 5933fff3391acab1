/**
 * @module A tar.gz of in-memory files, the format HCP Terraform takes for configuration versions.
 * Written here (ustar headers + the standard CompressionStream) so the plugin needs neither a `tar`
 * binary nor a runtime module. Entries are sorted and dated 0, so equal files give equal bytes.
 */
import { CtsError } from "../../../core/plugin-api/mod.ts";

const BLOCK = 512;
const encoder = new TextEncoder();

function field(header: Uint8Array, offset: number, length: number, text: string): void {
  const bytes = encoder.encode(text);
  header.set(bytes.subarray(0, length), offset);
}

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, "0") + "\0";
}

/** Splits a long path into ustar's prefix (≤155) and name (≤100) at a slash. */
function splitPath(path: string): { prefix: string; name: string } {
  if (encoder.encode(path).length <= 100) return { prefix: "", name: path };
  for (let i = path.length - 1; i > 0; i--) {
    if (path[i] !== "/") continue;
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100) return { prefix, name };
  }
  throw new CtsError("CTS_ERR_DRIVER", `Cannot pack the configuration: the path ${path} is too long for a tar entry`);
}

function header(path: string, size: number): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const { prefix, name } = splitPath(path);
  field(block, 0, 100, name);
  field(block, 100, 8, octal(0o644, 8));
  field(block, 108, 8, octal(0, 8));
  field(block, 116, 8, octal(0, 8));
  field(block, 124, 12, octal(size, 12));
  field(block, 136, 12, octal(0, 12));
  field(block, 148, 8, "        ");
  field(block, 156, 1, "0");
  field(block, 257, 6, "ustar\0");
  field(block, 263, 2, "00");
  field(block, 345, 155, prefix);
  const sum = block.reduce((total, byte) => total + byte, 0);
  field(block, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return block;
}

/** The uncompressed tar of `files` (path → text), entries sorted by path. */
export function tarOf(files: Readonly<Record<string, string>>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const path of Object.keys(files).sort()) {
    const content = encoder.encode(files[path]!);
    parts.push(header(path, content.length), content);
    const pad = (BLOCK - (content.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return concat(parts);
}

export async function tarGzOf(files: Readonly<Record<string, string>>): Promise<Uint8Array> {
  const stream = new Blob([tarOf(files) as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Lowercase hex SHA-256 of a text, for change detection. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
