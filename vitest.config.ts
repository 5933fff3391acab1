import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Suites spawn real servers and processes; two workers match this 2-core machine.
    pool: "forks",
    maxWorkers: 2,
  },
});
