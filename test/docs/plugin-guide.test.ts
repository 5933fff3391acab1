/**
 * docs/plugin-guide.md shows its worked driver, condition and tests as the files of
 * test/fixtures/sdk-consumer/, which test/sdk/npm-pack.test.ts type-checks, tests and runs against
 * the packed packages. Each code block marked `<!-- from <path> -->` must be that file exactly, so
 * the guide cannot drift from code that works. Beyond CTS (its plugins are compiled into the binary).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const guide = readFileSync(join(root, "docs/plugin-guide.md"), "utf8");
const quoted = [...guide.matchAll(/<!-- from (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)].map(([, path, code]) => ({ path: path!, code: code! }));

describe("the plugin author's guide", () => {
  it("quotes the worked driver, condition, their tests and settings", () => {
    expect(quoted.map((block) => block.path)).toEqual([
      "test/fixtures/sdk-consumer/tsconfig.json",
      "test/fixtures/sdk-consumer/src/driver.ts",
      "test/fixtures/sdk-consumer/src/condition.ts",
      "test/fixtures/sdk-consumer/test/driver.conformance.spec.ts",
      "test/fixtures/sdk-consumer/test/condition.conformance.spec.ts",
      "test/fixtures/sdk-consumer/vitest.config.js",
    ]);
  });

  it.each(quoted)("shows $path as it is", ({ path, code }) => {
    expect(code).toBe(readFileSync(join(root, path), "utf8").replace(/\n$/, ""));
  });
});
