/**
 * @module A task's current inputs: the latest value each source published, combined into the
 * `TaskInputs` a driver renders (`services` is always present, `{}` when nothing renders it), and
 * the latest data each source watched without publishing it (part of the run fingerprint).
 */
import type { InputVariable, TaskInputs } from "../../../core/plugin-api/mod.ts";

export class InputSlots {
  /** Source index → variable → latest value. Source order decides merge order. */
  readonly #values = new Map<number, Map<InputVariable, unknown>>();
  /** Source index → latest watched-but-unpublished data. */
  readonly #observed = new Map<number, unknown>();
  /** Source index and variable of every source that must publish before a run may start. */
  #expected: [number, InputVariable][] = [];

  /** Remembers which variable each source (by index) declares it renders. */
  expect(sources: readonly { readonly variable?: InputVariable }[]): void {
    this.#expected = sources.flatMap((source, index): [number, InputVariable][] =>
      source.variable === undefined ? [] : [[index, source.variable]]);
  }

  /** Declared variables whose source has not published yet. */
  missing(): InputVariable[] {
    return this.#expected.filter(([index, variable]) => !this.has(index, variable)).map(([, variable]) => variable);
  }

  publish(source: number, variable: InputVariable, value: unknown): void {
    let slot = this.#values.get(source);
    if (!slot) {
      slot = new Map();
      this.#values.set(source, slot);
    }
    slot.set(variable, value);
  }

  observe(source: number, value: unknown): void {
    this.#observed.set(source, value);
  }

  /** Whether `source` has published `variable` at least once. */
  has(source: number, variable: InputVariable): boolean {
    return this.#values.get(source)?.has(variable) ?? false;
  }

  /** The rendered inputs; two sources of one variable (a condition and a module input) merge. */
  current(): TaskInputs {
    const merged: Partial<Record<InputVariable, unknown>> = {};
    for (const index of [...this.#values.keys()].sort((a, b) => a - b)) {
      for (const [variable, value] of this.#values.get(index)!) {
        const previous = merged[variable];
        merged[variable] = isRecord(previous) && isRecord(value) ? { ...previous, ...value } : value;
      }
    }
    const { services, ...rest } = merged;
    return { services: services ?? {}, ...rest } as TaskInputs;
  }

  /** What a run fingerprints: the rendered inputs, plus unpublished watched data when there is any. */
  fingerprinted(inputs: TaskInputs): unknown {
    if (this.#observed.size === 0) return inputs;
    const observed: Record<string, unknown> = {};
    for (const [index, value] of this.#observed) observed[String(index)] = value;
    return { inputs, observed };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
