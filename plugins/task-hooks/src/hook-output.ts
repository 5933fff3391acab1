/**
 * @module A hook's output as the run record keeps it: stdout and stderr in the order they came,
 * bounded to the last characters (where a script says what went wrong), masked. Masking happens
 * before the cut, on a margin beyond the bound, and a cut start drops its partial first line, so a
 * secret that straddles the cut cannot leave half of itself behind.
 */
import type { SecretMasker } from "../../../core/plugin-api/mod.ts";

/** Characters kept beyond the bound until the text is masked. */
const MARGIN = 4096;

export class HookOutput {
  readonly #limit: number;
  #text = "";
  #dropped = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The bound the process runner needs per stream, so it never holds more either. */
  get streamLimit(): number {
    return this.#limit + MARGIN;
  }

  add(chunk: string): void {
    this.#text += chunk;
    const excess = this.#text.length - (this.#limit + MARGIN) * 2;
    if (excess > 0) {
      this.#text = this.#text.slice(excess);
      this.#dropped += excess;
    }
  }

  /** The masked text, at most `limit` characters, and how many characters were left out. */
  result(masker: Pick<SecretMasker, "mask">): { readonly output: string; readonly omitted: number } {
    let masked = masker.mask(this.#text);
    let omitted = this.#dropped;
    if (masked.length > this.#limit) {
      let cut = masked.length - this.#limit;
      const newline = masked.indexOf("\n", cut);
      if (newline !== -1 && newline < masked.length - 1) cut = newline + 1;
      // Counted in the masked text's characters: close enough to say how much is missing.
      omitted += cut;
      masked = masked.slice(cut);
    } else if (omitted > 0) {
      const newline = masked.indexOf("\n");
      if (newline !== -1 && newline < masked.length - 1) {
        omitted += newline + 1;
        masked = masked.slice(newline + 1);
      }
    }
    return { output: masked, omitted };
  }
}
