/**
 * @module The growing log of a plan or an apply, read as HCP Terraform serves it: a stream framed
 * by STX (0x02) at the start and ETX (0x03) once the phase is over, paged by byte `offset` and
 * `limit`. Clients (go-tfe's LogReader, the Terraform CLI) poll from their last offset until they
 * see ETX, so the frame must only close when nothing more will be written.
 */

const STX = 0x02;
const ETX = 0x03;
const encoder = new TextEncoder();

export class RunLog {
  #bytes = new Uint8Array(1024);
  #size = 0;
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  append(text: string): void {
    if (this.#closed || text === "") return;
    const chunk = encoder.encode(text);
    if (this.#size + chunk.length > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#size + chunk.length));
      grown.set(this.#bytes.subarray(0, this.#size));
      this.#bytes = grown;
    }
    this.#bytes.set(chunk, this.#size);
    this.#size += chunk.length;
  }

  /** Ends the log: readers see ETX after the last byte. Idempotent. */
  close(): void {
    this.#closed = true;
  }

  /** The log without its frame. */
  text(): string {
    return new TextDecoder().decode(this.#bytes.subarray(0, this.#size));
  }

  /** Bytes `[offset, offset + limit)` of the framed stream (everything from `offset` without a limit). */
  read(offset = 0, limit?: number): Uint8Array<ArrayBuffer> {
    const framedSize = 1 + this.#size + (this.#closed ? 1 : 0);
    const start = Math.min(Math.max(0, offset), framedSize);
    const end = limit === undefined ? framedSize : Math.min(framedSize, start + Math.max(0, limit));
    const out = new Uint8Array(end - start);
    for (let position = start; position < end; position++) {
      out[position - start] = position === 0 ? STX : position <= this.#size ? this.#bytes[position - 1]! : ETX;
    }
    return out;
  }
}
