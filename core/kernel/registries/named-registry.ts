/**
 * @module A name → implementation map (drivers, conditions, module inputs) that freezes at start.
 *
 * Several implementations of one concept coexist through a registry rather than through the
 * container, so that a task can pick one by the name a user wrote in the config.
 */
import { CtsError, type Named, type Registry } from "../../plugin-api/mod.ts";

export class NamedRegistry<T extends Named> implements Registry<T> {
  /** What the entries are, for messages: `driver`, `condition`, `module input`. */
  readonly kind: string;
  readonly #entries = new Map<string, T>();
  // A method-shaped type keeps NamedRegistry<Factory> assignable to NamedRegistry<Named> (bivariance).
  readonly #wrap: { apply(entry: T): T };
  #frozen = false;

  /** `wrap` turns a registered entry into what `get` hands out (the kernel checks blocks there). */
  constructor(kind: string, wrap: (entry: T) => T = (entry) => entry) {
    this.kind = kind;
    this.#wrap = { apply: wrap };
  }

  register(entry: T): void {
    if (this.#frozen) {
      throw new CtsError(
        "CTS_ERR_REGISTRY_FROZEN",
        `Cannot register ${this.kind} "${entry.name}": registrations close when the kernel starts`,
      );
    }
    if (typeof entry?.name !== "string" || entry.name === "") {
      throw new TypeError(`Cannot register ${this.kind}: the entry has no name`);
    }
    if (this.#entries.has(entry.name)) {
      throw new CtsError("CTS_ERR_CONFLICT", `Cannot register ${this.kind} "${entry.name}": already registered`);
    }
    this.#entries.set(entry.name, this.#wrap.apply(entry));
  }

  get(name: string): T | undefined {
    return this.#entries.get(name);
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  /** Closes registration; the kernel calls this once every plugin has initialised. */
  freeze(): void {
    this.#frozen = true;
  }

  get frozen(): boolean {
    return this.#frozen;
  }
}
