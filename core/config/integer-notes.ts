/**
 * @module What a config file's numbers for integer fields are worth saying (weak-decode.ts): CTS
 * truncates `port = 1.5` to 1 without a word (mapstructure), so cts-runtime does too and warns; a
 * number beyond ±2^53 (`1e308`), which CTS would turn into a meaningless integer, is refused.
 */
import type { ConfigIssue } from "./config-error.ts";
import { pointerToPath } from "./field-path.ts";
import type { IntegerNotes } from "./weak-decode.ts";

export function integerNotes(
  file: string, offsets: Readonly<Record<string, number>>, issues: ConfigIssue[], warnings: ConfigIssue[],
): IntegerNotes {
  return {
    truncated(pointer, written, kept) {
      warnings.push({ file, path: pointerToPath(pointer, offsets), message: `${written} is not a whole number: read as ${kept}, as CTS reads it` });
    },
    outOfRange(pointer, written) {
      issues.push({ file, path: pointerToPath(pointer, offsets), message: `${written} is out of range: expected a whole number from -9007199254740991 to 9007199254740991` });
    },
  };
}
