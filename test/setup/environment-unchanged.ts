/**
 * @module A vitest setup file of both tiers: a test file that leaves `process.env` changed fails.
 * Test files share their worker's modules and process (`isolate: false`, which saves importing the
 * kernel afresh for each file), so a changed variable would otherwise change the files run after it.
 */
import { afterAll } from "vitest";

const environmentAtStart = { ...process.env };

afterAll(() => {
  const names = new Set([...Object.keys(environmentAtStart), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => process.env[name] !== environmentAtStart[name]).sort();
  if (changed.length > 0) {
    throw new Error(`Cannot leave process.env changed after a test file (${changed.join(", ")}): restore it in afterAll`);
  }
});
