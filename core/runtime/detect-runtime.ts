/** @module Which JavaScript runtime this process runs on (only the two the project supports). */

export type RuntimeKey = "deno" | "node";

/** `deno` when the Deno global exists, else `node` (vitest, tsc builds and npx all run on Node). */
export function detectRuntime(): RuntimeKey {
  return typeof (globalThis as { Deno?: unknown }).Deno === "object" ? "deno" : "node";
}
