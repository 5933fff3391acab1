/** @module Resource ids shaped like HCP Terraform's: a type prefix, a dash, 16 base58 characters. */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function randomChars(count: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  let text = "";
  for (const byte of bytes) text += ALPHABET[byte % ALPHABET.length];
  return text;
}

/** e.g. `newId("ws")` → `ws-8ZxRGTJeQi2aBc7d`. */
export function newId(prefix: string): string {
  return `${prefix}-${randomChars(16)}`;
}

/** An unguessable path segment for the no-auth upload, log and download URLs. */
export function newSecret(): string {
  return randomChars(40);
}

/** ISO-8601 with milliseconds, as HCP Terraform writes timestamps. */
export function now(): string {
  return new Date().toISOString();
}
