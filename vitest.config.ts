import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // The testkit imports its peers by package name; in-tree they are the sources (as in tsconfig.json's paths).
    alias: [
      { find: /^@cts-runtime\/plugin-api$/, replacement: source("./core/plugin-api/mod.ts") },
      { find: /^cts-runtime$/, replacement: source("./core/library.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Suites spawn real servers and processes; two workers match this 2-core machine.
    pool: "forks",
    maxWorkers: 2,
  },
});
