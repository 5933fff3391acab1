import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runValidate } from "../../../core/cli/commands/validate.ts";
import type { CliIo } from "../../../core/runtime/cli-io.ts";

const BROKEN = "test/fixtures/configs/broken";
const expected = JSON.parse(readFileSync("test/fixtures/configs/broken-expected.json", "utf8")).cases as {
  file: string; path: string; message: string; problems?: number;
}[];

function captureIo(): CliIo & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    readLine: () => Promise.resolve(undefined),
    env: {},
    cwd: process.cwd(),
    stdout: () => out,
    stderr: () => err,
  };
}

describe("validate (in-process, real kernel and built-in plugins)", () => {
  test.each(["cts-reference.hcl", "cts-reference.json"])("examples/configs/%s is valid", async (file) => {
    const io = captureIo();
    const code = await runValidate({ configPaths: [{ kind: "file", path: `examples/configs/${file}` }], io });
    expect(io.stderr()).toBe("");
    expect(code).toBe(0);
    expect(io.stdout()).toContain("==> The configuration is valid");
    expect(io.stdout()).toMatch(/web-services\s+condition services\s+driver terraform\s+module_input consul-kv/);
    expect(io.stdout()).toMatch(/nightly\s+condition schedule\s+driver terraform\s+module_input services\s+\(disabled\)/);
    expect(io.stdout()).toContain("driver-echo (driver) from ");
  });

  test("there are ten broken configs and each has an expectation", () => {
    expect(expected.map((entry) => entry.file).sort()).toEqual(
      [...new Set(expected.map((entry) => entry.file))].sort(),
    );
    expect(expected).toHaveLength(10);
  });

  test.each(expected)("$file is rejected at $path", async ({ file, path, message, problems = 1 }) => {
    const io = captureIo();
    const code = await runValidate({ configPaths: [{ kind: "file", path: `${BROKEN}/${file}` }], io });
    expect(code).toBe(15);
    expect(io.stdout()).toBe("");
    const lines = io.stderr().split("\n");
    expect(lines[0]).toBe(`==> Error: the configuration is invalid (${problems === 1 ? "1 problem" : `${problems} problems`}):`);
    const where = path === "" ? `${BROKEN}/${file}: ` : `${BROKEN}/${file}: ${path}: `;
    expect(lines[1]).toContain(`    ${where}`);
    expect(lines[1]).toContain(message);
  });

  test("a driver option's Go duration is checked with a readable message (driver \"terraform\" lock_timeout)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cts-validate-"));
    const file = join(dir, "cts.hcl");
    writeFileSync(file, `driver "terraform" {\n  lock_timeout = "5 minutes"\n}\ntask {\n  name   = "web"\n  module = "./m"\n  condition "services" {\n    names = ["web"]\n  }\n}\n`);
    try {
      const io = captureIo();
      expect(await runValidate({ configPaths: [{ kind: "file", path: file }], io })).toBe(15);
      expect(io.stderr()).toContain(`${file}: driver.terraform.lock_timeout: must be a duration such as "5s", "1m30s" or "1h", got "5 minutes"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("no paths: exit 13", async () => {
    const io = captureIo();
    expect(await runValidate({ configPaths: [], io })).toBe(13);
    expect(io.stderr()).toContain("at least one -config-file or -config-dir is required");
  });
});
