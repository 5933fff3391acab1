/**
 * @module A value as an error message quotes it: its JSON text, cut to a short prefix when long and
 * followed by its length, so a 2 MB value never fills an error, a log line or an API answer. In the
 * contract so that config, kernel and API errors quote alike.
 */

/** Characters of a quoted value kept before it is cut. */
export const QUOTED_VALUE_MAX = 64;

export function quoteValue(value: unknown, max = QUOTED_VALUE_MAX): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  if (text.length <= max) return typeof value === "string" ? JSON.stringify(value) : text;
  const head = typeof value === "string" ? JSON.stringify(text.slice(0, max)).slice(0, -1) : text.slice(0, max);
  return `${head}…${typeof value === "string" ? '"' : ""} (${text.length} characters)`;
}

/** The longest error message a daemon answer or a config problem carries; past it, the text is cut. */
export const MESSAGE_MAX = 1000;

/** `text` cut to `max` characters, saying how long it was (a safety net for messages that quote input). */
export function cutText(text: string, max = MESSAGE_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
