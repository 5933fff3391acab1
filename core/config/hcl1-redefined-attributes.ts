/**
 * @module HCL 1 compatibility for an attribute set twice in one body. CTS parses its config with
 * HCL 1, where the later value silently wins (CTS's own e2e config for a task with two module_input
 * blocks sets `module` twice, and runs the second module); HCL 2 (our parser) rejects the file with
 * "Attribute redefined". The earlier definitions the parser names are blanked out (spaces, line
 * breaks kept, so later positions in messages stay right) and the file is parsed again.
 */

export interface SourcePosition {
  /** 1-based, as HCL reports them. */
  readonly line: number;
  readonly column: number;
}

/** The earlier definitions named by "Attribute redefined" diagnostics in a parser message. */
export function redefinedAttributes(message: string, file: string): SourcePosition[] {
  const positions: SourcePosition[] = [];
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`Attribute redefined; The argument "[^"]*" was already set at ${escaped}:(\\d+),(\\d+)-`, "g");
  for (const match of message.matchAll(pattern)) positions.push({ line: Number(match[1]), column: Number(match[2]) });
  return positions;
}

/** `text` with the attributes starting at `positions` (name through the end of its value) blanked out. */
export function blankAttributes(text: string, positions: readonly SourcePosition[]): string {
  const chars = [...text];
  for (const position of positions) {
    const start = offsetOf(chars, position);
    if (start === undefined) continue;
    const end = attributeEnd(chars, start);
    for (let i = start; i < end; i++) if (chars[i] !== "\n") chars[i] = " ";
  }
  return chars.join("");
}

function offsetOf(chars: readonly string[], position: SourcePosition): number | undefined {
  let line = 1;
  let i = 0;
  while (i < chars.length && line < position.line) if (chars[i++] === "\n") line++;
  const offset = i + position.column - 1;
  return line === position.line && offset < chars.length ? offset : undefined;
}

/** Where the attribute starting at `start` ends: the first line break (or closing brace) outside brackets, strings and heredocs. */
function attributeEnd(chars: readonly string[], start: number): number {
  let depth = 0;
  let i = start;
  while (i < chars.length) {
    const ch = chars[i]!;
    if (ch === "\"") {
      i++;
      while (i < chars.length && chars[i] !== "\"" && chars[i] !== "\n") i += chars[i] === "\\" ? 2 : 1;
      i++;
    } else if (ch === "<" && chars[i + 1] === "<") {
      i = heredocEnd(chars, i);
    } else if (ch === "(" || ch === "[" || ch === "{") {
      depth++;
      i++;
    } else if (ch === ")" || ch === "]" || ch === "}") {
      if (depth === 0) return i;
      depth--;
      i++;
    } else if (ch === "\n" && depth === 0) {
      return i;
    } else if (ch === "#" || (ch === "/" && chars[i + 1] === "/")) {
      while (i < chars.length && chars[i] !== "\n") i++;
    } else {
      i++;
    }
  }
  return i;
}

function heredocEnd(chars: readonly string[], from: number): number {
  const rest = chars.slice(from).join("");
  const header = /^<<-?([A-Za-z_][A-Za-z0-9_]*)[^\n]*\n/.exec(rest);
  if (!header) return from + 2;
  const close = new RegExp(`^[ \\t]*${header[1]}[ \\t]*$`, "m");
  const match = close.exec(rest.slice(header[0].length));
  return match ? from + [...rest.slice(0, header[0].length + match.index + match[0].length)].length : chars.length;
}
