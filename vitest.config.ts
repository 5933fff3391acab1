import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { testTiers } from "./test/setup/test-tiers.ts";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// Each test file's tier comes from what it imports (test/setup/test-tiers.ts; CONTRIBUTING.md, "Test tiers").
const tiers = testTiers(source("."));
const filesOf = (tier: string) => tiers.filter((verdict) => verdict.tier === tier).map((verdict) => verdict.file);

export default defineConfig({
  resolve: {
    // The testkit imports its peers by package name; in-tree they are the sources (as in tsconfig.json's paths).
    alias: [
      { find: /^@cts-runtime\/plugin-api$/, replacement: source("./core/plugin-api/mod.ts") },
      { find: /^cts-runtime$/, replacement: source("./core/library.ts") },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Suites spawn real servers and processes; two workers match this 2-core machine.
    pool: "forks",
    maxWorkers: 2,
    // Files share their worker's modules instead of importing the kernel afresh each (about 1 CPU-s
    // a file here); a file that leaves process.env changed fails instead of changing the next ones.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: filesOf("unit"),
          // Starting a process or a server fails the test: such a file belongs to the integration tier.
          setupFiles: ["./test/setup/environment-unchanged.ts", "./test/setup/no-processes-or-servers.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: filesOf("integration"),
          setupFiles: ["./test/setup/environment-unchanged.ts"],
          // Tests spawn dist/main.js and pack the dist/ folders: rebuild first when a source is newer.
          globalSetup: ["./scripts/build-if-stale.mjs"],
        },
      },
    ],
  },
});
