/**
 * The rule that puts a test file in the unit or the integration tier (test/setup/test-tiers.ts), on
 * a small tree of test files and helpers written for each case: a file is `integration` when its
 * own imports or a test helper's (followed through helpers) start processes or servers, or when it
 * carries the `@integration` tag; a kernel import alone keeps it `unit`. Beyond CTS (its Go tests
 * use build tags).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testTiers } from "./test-tiers.ts";

let root: string;

function write(file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "cts-test-tiers-"));
  write("test/helpers/spawns.ts", `import { spawn } from "node:child_process";\nexport const run = spawn;\n`);
  write("test/helpers/uses-spawns.ts", `export { run } from "./spawns.ts";\nimport { run } from "./spawns.ts";\n`);
  write("test/helpers/pure.ts", `import { join } from "node:path";\nexport const here = join("a", "b");\n`);
  write("dev-servers/x/mod.ts", `import { serveHttp } from "../../core/runtime/serve-http.ts";\nexport { serveHttp };\n`);
  write("dev-servers/x/pure-part.ts", `export const parse = (text: string) => text;\n`);
  write("core/kernel/kernel.ts", `import { spawn } from "node:child_process";\nexport const createKernel = spawn;\n`);
  write("test/a/direct.test.ts", `import { execFile } from "node:child_process";\n`);
  write("test/a/through-helpers.test.ts", `import { it } from "vitest";\nimport { run } from "../helpers/uses-spawns.ts";\n`);
  write("test/a/dev-server.test.ts", `import { serveHttp } from "../../dev-servers/x/mod.ts";\n`);
  write("test/a/dev-server-pure-part.test.ts", `import { parse } from "../../dev-servers/x/pure-part.ts";\n`);
  write("test/a/kernel.test.ts", `import { createKernel } from "../../core/kernel/kernel.ts";\nimport { here } from "../helpers/pure.ts";\n`);
  write("test/a/tagged.test.ts", `/**\n * Boots a kernel that listens.\n * @integration: the kernel serves on a port.\n */\nimport { createKernel } from "../../core/kernel/kernel.ts";\n`);
  write("test/a/mentions-in-comments.test.ts", `// import { spawn } from "node:child_process";\n/* import "node:net"; */\nexport {};\n`);
  write("test/a/terraform.test.ts", `import { terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";\n`);
  write("test/a/not-a-test.ts", `import { spawn } from "node:child_process";\n`);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("test tiers", () => {
  it("classifies every *.test.ts file by what it and the test helpers it imports import", () => {
    const tiers = Object.fromEntries(testTiers(root).map((verdict) => [verdict.file.replace("test/a/", ""), verdict.tier]));
    expect(tiers).toEqual({
      "dev-server-pure-part.test.ts": "unit",
      "dev-server.test.ts": "integration",
      "direct.test.ts": "integration",
      "kernel.test.ts": "unit",
      "mentions-in-comments.test.ts": "unit",
      "tagged.test.ts": "integration",
      "terraform.test.ts": "integration",
      "through-helpers.test.ts": "integration",
    });
  });

  it("says why a file is integration: the import chain, or the tag", () => {
    const reasons = Object.fromEntries(testTiers(root).map((verdict) => [verdict.file, verdict.reason]));
    expect(reasons["test/a/through-helpers.test.ts"])
      .toBe("test/a/through-helpers.test.ts → test/helpers/uses-spawns.ts → test/helpers/spawns.ts → node:child_process");
    expect(reasons["test/a/dev-server.test.ts"])
      .toBe("test/a/dev-server.test.ts → dev-servers/x/mod.ts → core/runtime/serve-http.ts");
    expect(reasons["test/a/tagged.test.ts"]).toBe("tagged @integration");
    expect(reasons["test/a/kernel.test.ts"]).toBeUndefined();
  });
});
