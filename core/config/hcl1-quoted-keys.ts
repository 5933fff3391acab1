/**
 * @module HCL 1 compatibility for maps written as blocks with quoted keys. CTS parses its config
 * with HCL 1, and its docs write `task_env { "AWS_ACCESS_KEY_ID" = "..." }`; HCL 2 (our parser)
 * rejects quoted argument names in a block body. Such a body can only be a map, so the block is
 * rewritten into the equivalent map attribute (`task_env = { ... }`), which HCL 2 accepts.
 */

/** Offsets of the `{` of every unlabelled block whose body starts with a quoted key (`"K" =`). */
function quotedKeyBlockBraces(text: string): number[] {
  const braces: number[] = [];
  // The two significant tokens before the current position: a block header is `<newline|{|start> ident {`.
  let before: string = "start";
  let last: string = "start";
  let i = 0;
  const push = (kind: string): void => {
    before = last;
    last = kind;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\n") {
      push("newline");
      i++;
    } else if (ch === " " || ch === "\t" || ch === "\r") i++;
    else if (ch === "#" || (ch === "/" && text[i + 1] === "/")) i = lineEnd(text, i);
    else if (ch === "/" && text[i + 1] === "*") i = text.indexOf("*/", i + 2) < 0 ? text.length : text.indexOf("*/", i + 2) + 2;
    else if (ch === "\"") {
      i = stringEnd(text, i);
      push("string");
    } else if (ch === "<" && text[i + 1] === "<") {
      i = heredocEnd(text, i);
      push("string");
    } else if (/[A-Za-z_]/.test(ch)) {
      while (i < text.length && /[A-Za-z0-9_-]/.test(text[i]!)) i++;
      push("ident");
    } else {
      if (ch === "{" && last === "ident" && ["newline", "{", "start"].includes(before) && startsWithQuotedKey(text, i + 1)) {
        braces.push(i);
      }
      push(ch === "{" ? "{" : "punct");
      i++;
    }
  }
  return braces;
}

/** True when the first significant token after `from` is a quoted string followed by `=`. */
function startsWithQuotedKey(text: string, from: number): boolean {
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text[i] === "#" || (text[i] === "/" && text[i + 1] === "/")) i = lineEnd(text, i);
    else break;
  }
  if (text[i] !== "\"") return false;
  i = stringEnd(text, i);
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  return text[i] === "=" && text[i + 1] !== "=";
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end < 0 ? text.length : end;
}

/** Offset just after the string starting at `from` (a `"`), honouring backslash escapes. */
function stringEnd(text: string, from: number): number {
  let i = from + 1;
  while (i < text.length && text[i] !== "\"" && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** Offset just after a heredoc (`<<EOF` or `<<-EOF` ... `EOF`). */
function heredocEnd(text: string, from: number): number {
  const header = /^<<-?([A-Za-z_][A-Za-z0-9_]*)[^\n]*\n/.exec(text.slice(from));
  if (!header) return from + 2;
  const close = new RegExp(`^[ \\t]*${header[1]}[ \\t]*$`, "m");
  const rest = text.slice(from + header[0].length);
  const match = close.exec(rest);
  return match ? from + header[0].length + match.index + match[0].length : text.length;
}

/** `text` with every quoted-key block turned into a map attribute; unchanged when there is none. */
export function quotedKeyBlocksToMaps(text: string): string {
  let out = text;
  for (const brace of quotedKeyBlockBraces(text).reverse()) out = `${out.slice(0, brace)}= ${out.slice(brace)}`;
  return out;
}
