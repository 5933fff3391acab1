/** @module The process environment, for the kernel's environmentToken. */
import process from "node:process";

export function processEnvironment(): Readonly<Record<string, string | undefined>> {
  return Object.freeze({ ...process.env });
}
