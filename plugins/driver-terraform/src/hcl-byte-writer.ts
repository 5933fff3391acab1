/**
 * @module A growable UTF-8 buffer that large generated files (terraform.tfvars over 10 000
 * instances) are written into, decoded to one string at the end.
 *
 * Why: a cold 10 000-instance render pushed ~600 000 small strings (each quoted value a fresh
 * string) into an array and joined them; the allocation, the garbage collector and the join were
 * most of its time. Here values are copied character by character into one byte buffer, and
 * HCL escaping of printable ASCII (quotes, backslashes, `${`) and newlines happens in the same
 * pass as the copy, so the common value allocates nothing. Anything else goes through
 * quoteHclString, so the bytes are always exactly the string encoder's.
 */
import { quoteHclString } from "./hcl-value.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** A buffer kept between renders up to this size; a larger one is dropped after its render. */
const KEEP_BYTES = 16 * 1024 * 1024;
let spare: Uint8Array | undefined;
/** Size of the last file written: a buffer that must grow goes there at once, not by doubling. */
let lastLength = 0;
const EMPTY = new Uint8Array(0);

export class HclByteWriter {
  private buf: Uint8Array;
  private pos = 0;

  constructor() {
    // Renders are synchronous and do not nest, but a second writer while one is open still works.
    this.buf = spare ?? new Uint8Array(64 * 1024);
    spare = undefined;
  }

  /** Bytes written so far (a mark for `bytesSince`). */
  get length(): number {
    return this.pos;
  }

  private reserve(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.pos + bytes, lastLength));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  /** Pre-encoded bytes (constant text, or a cached entry). */
  bytes(bytes: Uint8Array): void {
    const n = bytes.length;
    this.reserve(n);
    // A call into `set` costs more than copying a short constant (`\n    name = `) in place.
    if (n > 64) {
      this.buf.set(bytes, this.pos);
      this.pos += n;
      return;
    }
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = bytes[i]!;
    this.pos = p;
  }

  /** Text as it is (already escaped where needed). */
  text(text: string): void {
    const n = text.length;
    this.reserve(n);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        // Non-ASCII: let the platform encoder write the rest (at most 3 bytes per UTF-16 unit).
        this.pos = p;
        const rest = text.slice(i);
        this.reserve(rest.length * 3);
        this.pos += encoder.encodeInto(rest, this.buf.subarray(this.pos)).written;
        return;
      }
      buf[p++] = code;
    }
    this.pos = p;
  }

  /** A double-quoted HCL string literal of `value`: the bytes of quoteHclString(value). */
  quoted(value: string): void {
    this.quotedAfter(EMPTY, value);
  }

  /**
   * Constant bytes (an attribute's `\n    name = `) then a quoted value: one call and one capacity
   * check instead of two, which is a measurable share when a file holds 300 000 of them.
   */
  quotedAfter(prefix: Uint8Array, value: string): void {
    const n = value.length;
    const m = prefix.length;
    this.reserve(m + 2 * n + 2);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < m; i++) buf[p++] = prefix[i]!;
    this.pos = p;
    buf[p++] = 0x22;
    for (let i = 0; i < n; i++) {
      const code = value.charCodeAt(i);
      if (code >= 0x20 && code <= 0x7e) {
        // Escapes as quoteHclString writes them: `\"`, `\\`, and `$${` / `%%{` for template openers.
        if (code === 0x22 || code === 0x5c) buf[p++] = 0x5c;
        else if ((code === 0x24 || code === 0x25) && value.charCodeAt(i + 1) === 0x7b) buf[p++] = code;
        buf[p++] = code;
      } else if (code === 0x0a) {
        buf[p++] = 0x5c;
        buf[p++] = 0x6e;
      } else {
        // Other control characters, non-ASCII text, surrogates: the string encoder decides.
        this.text(quoteHclString(value));
        return;
      }
    }
    buf[p++] = 0x22;
    this.pos = p;
  }

  /** A copy of the bytes written since `mark` (to reuse them in a later render). */
  bytesSince(mark: number): Uint8Array {
    return this.buf.slice(mark, this.pos);
  }

  /** The whole text; the writer must not be used afterwards. */
  finish(): string {
    const text = decoder.decode(this.buf.subarray(0, this.pos));
    lastLength = this.pos;
    if (this.buf.length <= KEEP_BYTES) spare = this.buf;
    this.buf = new Uint8Array(0);
    this.pos = 0;
    return text;
  }
}

/** Constant text as bytes, for HclByteWriter.bytes. */
export function hclBytes(text: string): Uint8Array {
  return encoder.encode(text);
}
