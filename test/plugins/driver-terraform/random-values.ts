/** @module Seeded random HCL values with awkward strings, for fmt and round-trip tests. */

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = [
  "a", "web", "Z9", " ", "\"", "\\", "\\\\n", "\n", "\r\n", "\t", "${", "$${", "$", "$$", "%{", "%%{", "%", "}",
  "\u0000", "\u0001", "\u001f", "\u007f", "\u0085", "\u009f", "\u00a0", "é", "ß", "中文", "\u2028", "\ufeff",
  "😀", "𝄞", "👍🏽", "=", ":", "#", "//", "/*", "<<EOF", "~", "-", "_", "0", "1.5",
];

export function randomString(random: () => number): string {
  const n = Math.floor(random() * 6);
  let out = "";
  for (let i = 0; i < n; i++) out += PIECES[Math.floor(random() * PIECES.length)];
  return out;
}

const IDENTIFIERS = ["id", "name", "my-key", "_x", "true", "null", "a1"];

export function randomValue(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth <= 0 || pick < 0.45) {
    const scalar = random();
    if (scalar < 0.55) return randomString(random);
    if (scalar < 0.75) return Math.floor(random() * 2_000_000) - 1_000_000;
    if (scalar < 0.85) return Math.round(random() * 1e6) / 1e3;
    return random() < 0.5;
  }
  const size = Math.floor(random() * 4);
  if (pick < 0.7) return Array.from({ length: size }, () => randomValue(random, depth - 1));
  const object: Record<string, unknown> = {};
  for (let i = 0; i < size; i++) {
    const key = random() < 0.5 ? IDENTIFIERS[Math.floor(random() * IDENTIFIERS.length)]! : randomString(random) || "k";
    object[key] = randomValue(random, depth - 1);
  }
  return object;
}
