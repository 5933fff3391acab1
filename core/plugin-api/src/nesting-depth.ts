/**
 * @module How deeply a config file or a JSON body nests its blocks, objects and lists, found before
 * anything parses it: HCL's parser and the recursive steps after it exhaust the stack somewhere past
 * a thousand levels ("Maximum call stack size exceeded", no line). A real config nests a handful of
 * levels, so a text past `MAX_NESTING` is refused with the line where it goes too deep. Quoted
 * strings, comments and heredocs are skipped (their brackets are text).
 */

export const MAX_NESTING = 100;

export interface TooDeep {
  readonly line: number;
  readonly column: number;
}

const OPEN = new Set(["{", "[", "("]);
const CLOSE = new Set(["}", "]", ")"]);

/** Where `text` first nests deeper than `max`, or undefined. `hcl`: also skip `#`, `//`, `/* *\/` comments and heredocs. */
export function tooDeep(text: string, hcl: boolean, max = MAX_NESTING): TooDeep | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === "\n") {
      line++;
      lineStart = at + 1;
    } else if (char === '"') {
      at = stringEnd(text, at);
    } else if (hcl && (char === "#" || (char === "/" && text[at + 1] === "/"))) {
      at = text.indexOf("\n", at) - 1;
      if (at < 0) return undefined;
    } else if (hcl && char === "/" && text[at + 1] === "*") {
      const end = text.indexOf("*/", at + 2);
      if (end < 0) return undefined;
      for (let n = at; n < end; n++) if (text[n] === "\n") (line++, lineStart = n + 1);
      at = end + 1;
    } else if (hcl && char === "<" && text[at + 1] === "<") {
      const heredoc = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)\r?\n/.exec(text.slice(at, at + 200));
      if (heredoc) {
        const closing = new RegExp(`\\n[ \\t]*${heredoc[1]}[ \\t]*(\\r?\\n|$)`, "g");
        closing.lastIndex = at;
        const found = closing.exec(text);
        if (!found) return undefined;
        const end = found.index + found[0].length - 1;
        for (let n = at; n < end; n++) if (text[n] === "\n") (line++, lineStart = n + 1);
        at = end;
        if (text[at] === "\n") (line++, lineStart = at + 1);
      }
    } else if (OPEN.has(char)) {
      if (++depth > max) return { line, column: at - lineStart + 1 };
    } else if (CLOSE.has(char)) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `at` (or the last index when it never closes). */
function stringEnd(text: string, at: number): number {
  for (let n = at + 1; n < text.length; n++) {
    if (text[n] === "\\") n++;
    else if (text[n] === '"') return n;
    else if (text[n] === "\n") return n - 1; // an unclosed string: its line break is counted by the caller
  }
  return text.length - 1;
}
