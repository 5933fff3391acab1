/**
 * @module One phase's output as a run record keeps it: bounded in UTF-8 bytes. Past the bound the
 * middle goes: the first quarter (the start of the plan) and the newest three quarters (where an
 * apply ends and errors are) stay, and the text says how many bytes were left out there.
 */
import type { RunLog } from "../../../core/plugin-api/mod.ts";

const utf8 = new TextEncoder();
const decoder = new TextDecoder();

/** UTF-8 length of `text`. */
export function utf8Bytes(text: string): number {
  return utf8.encode(text).byteLength;
}

/** The note that stands where output was left out. */
export function omissionNote(bytes: number): string {
  return `\n… ${bytes.toLocaleString("en-US")} bytes of output left out here …\n`;
}

/**
 * `text` split so the first part is at most `limit` UTF-8 bytes and ends at a line end (within 1 KiB
 * of the limit); without a line end in reach it is empty, unless `anywhere` (then cut at the limit).
 */
function splitAtBytes(text: string, limit: number, anywhere: boolean): [string, string] {
  const encoded = utf8.encode(text);
  let cut = Math.min(limit, encoded.length);
  while (cut > 0 && (encoded[cut]! & 0xc0) === 0x80) cut--;
  const newline = cut > 0 ? encoded.lastIndexOf(10, cut - 1) : -1;
  if (newline >= 0 && cut - newline <= 1024) cut = newline + 1;
  else if (!anywhere) cut = 0;
  return [decoder.decode(encoded.subarray(0, cut)), decoder.decode(encoded.subarray(cut))];
}

/** The end of `text`, at most `max` UTF-8 bytes, starting at a line start when one is within 1 KiB. */
export function lastBytes(text: string, max: number): string {
  const encoded = utf8.encode(text);
  if (encoded.length <= max) return text;
  let cut = encoded.length - max;
  const newline = encoded.indexOf(10, cut);
  if (newline >= 0 && newline - cut < 1024) cut = newline + 1;
  while (cut < encoded.length && (encoded[cut]! & 0xc0) === 0x80) cut++;
  return decoder.decode(encoded.subarray(cut));
}

export class RunLogBuffer {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  #head = "";
  #headBytes = 0;
  readonly #tail: { text: string; bytes: number }[] = [];
  #tailBytes = 0;
  #bytes = 0;
  #omitted = 0;

  /** `limit`: the most bytes of output kept. */
  constructor(limit: number) {
    this.#headLimit = Math.floor(limit / 4);
    this.#tailLimit = limit - this.#headLimit;
  }

  /** Bytes received so far (kept or left out). */
  get bytes(): number {
    return this.#bytes;
  }

  append(text: string): void {
    if (text === "") return;
    let bytes = utf8Bytes(text);
    this.#bytes += bytes;
    if (this.#tail.length === 0 && this.#headBytes < this.#headLimit) {
      // The head takes what fits of the output's start (whole lines when it can), the tail the rest.
      const [kept, rest] = this.#headBytes + bytes <= this.#headLimit
        ? [text, ""]
        : splitAtBytes(text, this.#headLimit - this.#headBytes, this.#headBytes === 0);
      this.#head += kept;
      this.#headBytes += utf8Bytes(kept);
      if (rest === "") return;
      text = rest;
      bytes = utf8Bytes(rest);
    }
    this.#tail.push({ text, bytes });
    this.#tailBytes += bytes;
    while (this.#tailBytes > this.#tailLimit) this.#dropOldest(this.#tailBytes - this.#tailLimit);
  }

  snapshot(): RunLog {
    const tail = this.#tail.map((part) => part.text).join("");
    if (this.#omitted === 0) return { text: this.#head + tail, bytes: this.#bytes };
    return { text: this.#head + omissionNote(this.#omitted) + tail, bytes: this.#bytes, omitted_bytes: this.#omitted };
  }

  /** Drops at least `excess` bytes from the oldest tail part, at a line start when one is near. */
  #dropOldest(excess: number): void {
    const oldest = this.#tail[0]!;
    if (oldest.bytes <= excess) {
      this.#tail.shift();
      this.#tailBytes -= oldest.bytes;
      this.#omitted += oldest.bytes;
      return;
    }
    const encoded = utf8.encode(oldest.text);
    let cut = excess;
    const newline = encoded.indexOf(10, cut);
    if (newline >= 0 && newline - cut < 256) cut = newline + 1;
    // Never inside a character: continuation bytes are 10xxxxxx.
    while (cut < encoded.length && (encoded[cut]! & 0xc0) === 0x80) cut++;
    const kept = decoder.decode(encoded.subarray(cut));
    this.#tail[0] = { text: kept, bytes: encoded.length - cut };
    this.#tailBytes -= cut;
    this.#omitted += cut;
  }
}
