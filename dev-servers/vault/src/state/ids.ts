/** @module Token and accessor ids shaped like Vault's: `hvs.` plus 24 base62 characters. */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomChars(count: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  let text = "";
  for (const byte of bytes) text += ALPHABET[byte % ALPHABET.length];
  return text;
}

export const newToken = (): string => `hvs.${randomChars(24)}`;
export const newAccessor = (): string => randomChars(24);
