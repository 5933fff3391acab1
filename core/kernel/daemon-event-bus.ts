/**
 * @module The kernel's in-process bus for `DaemonEvents`: numbers each event, keeps the newest
 * few for resuming readers, and hands each event to every subscriber synchronously. A subscriber
 * that throws is dropped from that delivery only; publishers never see its error, because a broken
 * reader (a stream client, the status page) must not fail a task run. Known secrets are masked in
 * each event before it is kept or delivered, whoever published it. Run output (`run.output`) is
 * delivered live and never retained: a busy apply's lines would push the state changes a
 * resuming reader needs out of the buffer, and a reader that missed output re-reads the run.
 */
import type { DaemonEvent, DaemonEvents, NumberedEvent, SecretMasker } from "../plugin-api/mod.ts";

/** Enough for a reader to reconnect after a short outage under a busy engine. */
export const RETAINED_EVENTS = 1000;

export class DaemonEventBus implements DaemonEvents {
  readonly #listeners = new Set<(event: NumberedEvent) => void>();
  readonly #retained: NumberedEvent[] = [];
  readonly #capacity: number;
  readonly #secrets: Pick<SecretMasker, "maskValue"> | undefined;
  #lastId = 0;
  /** The id of the newest retained event that was pushed out (0: none yet). */
  #evictedThrough = 0;

  constructor(capacity = RETAINED_EVENTS, secrets?: Pick<SecretMasker, "maskValue">) {
    this.#secrets = secrets;
    this.#capacity = Math.max(1, capacity);
  }

  publish(event: DaemonEvent): void {
    const masked = this.#secrets ? this.#secrets.maskValue(event) : event;
    const numbered = { ...masked, id: ++this.#lastId, time: new Date().toISOString() } as NumberedEvent;
    if (numbered.type !== "run.output") {
      this.#retained.push(numbered);
      if (this.#retained.length > this.#capacity) this.#evictedThrough = this.#retained.shift()!.id;
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener(numbered);
      } catch {
        // See the module comment: a reader's failure stays the reader's.
      }
    }
  }

  subscribe(listener: (event: NumberedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  since(id: number): readonly NumberedEvent[] | undefined {
    if (id >= this.#lastId) return [];
    // Everything retainable after `id` is still here exactly when nothing newer than `id` was pushed out.
    if (id < this.#evictedThrough) return undefined;
    const first = this.#retained.findIndex((event) => event.id > id);
    return first < 0 ? [] : this.#retained.slice(first);
  }
}
