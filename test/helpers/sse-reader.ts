/**
 * @module A Server-Sent Events client for tests: reads `GET /v1/events` over real HTTP with fetch,
 * parses frames as the WHATWG EventSource does (id, event, data, comments), and lets a test wait
 * for the frames it expects.
 */
import { eventually } from "../../core/plugin-testkit/src/eventually.ts";

export interface SseFrame {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

export interface SseReaderOptions {
  readonly headers?: Record<string, string>;
  /** False: count frames by event type and remember the last id only (long floods). @default true */
  readonly retain?: boolean;
}

export class SseReader {
  readonly frames: SseFrame[] = [];
  /** Frames seen per event type (also when not retained). */
  readonly counts = new Map<string, number>();
  lastId: string | undefined;
  readonly comments: string[] = [];
  /** The response's status and headers, once known. */
  response: Response | undefined;
  /** Set when the stream ended (cleanly or by a cut connection). */
  ended: { readonly error?: string } | undefined;
  readonly #abort = new AbortController();
  #buffer = "";
  readonly #retain: boolean;

  private constructor(retain: boolean) {
    this.#retain = retain;
  }

  static async open(url: string, options: SseReaderOptions = {}): Promise<SseReader> {
    const reader = new SseReader(options.retain ?? true);
    const response = await fetch(url, {
      headers: { accept: "text/event-stream", ...options.headers },
      signal: reader.#abort.signal,
    });
    reader.response = response;
    void reader.#pump(response);
    return reader;
  }

  /** Events of `type` (default: every event but retry-only frames), data parsed as JSON. */
  events(type?: string): { id: number; event: string; data: Record<string, unknown> }[] {
    return this.frames
      .filter((frame) => type === undefined || frame.event === type)
      .map((frame) => ({ id: Number(frame.id), event: frame.event, data: JSON.parse(frame.data) as Record<string, unknown> }));
  }

  async waitFor(what: string, predicate: (reader: SseReader) => boolean, timeoutMs = 10_000): Promise<void> {
    await eventually(() => predicate(this), what, timeoutMs, 10);
  }

  close(): void {
    this.#abort.abort();
  }

  async #pump(response: Response): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        this.#buffer += decoder.decode(chunk, { stream: true });
        this.#parse();
      }
      this.ended = {};
    } catch (error) {
      this.ended = { error: String(error) };
    }
  }

  #parse(): void {
    let start = 0;
    let end: number;
    // A cursor, not a slice per frame: a large chunk holds hundreds of frames.
    while ((end = this.#buffer.indexOf("\n\n", start)) >= 0) {
      const block = this.#buffer.slice(start, end);
      start = end + 2;
      let id: string | undefined;
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") id = value;
        else if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
      if (data.length === 0) continue;
      this.counts.set(event, (this.counts.get(event) ?? 0) + 1);
      if (id !== undefined) this.lastId = id;
      if (this.#retain) this.frames.push({ ...(id !== undefined ? { id } : {}), event, data: data.join("\n") });
    }
    this.#buffer = this.#buffer.slice(start);
  }
}
