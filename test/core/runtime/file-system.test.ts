import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileSystem, fileUrlOf } from "../../../core/runtime/file-system.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cts-fs-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("file system adapter", () => {
  it("writes atomically into new parent folders, leaving no temp files", async () => {
    const fs = createFileSystem(dir);
    await fs.writeText("a/b/c.txt", "one");
    await fs.writeText("a/b/c.txt", "two");
    await fs.writeText("a/b/secret", "s", { mode: 0o600 });
    expect(await fs.readText(join(dir, "a/b/c.txt"))).toBe("two");
    expect((await readdir(join(dir, "a/b"))).sort()).toEqual(["c.txt", "secret"]);
    expect((await stat(join(dir, "a/b/secret"))).mode & 0o777).toBe(0o600);
  });

  it("answers exists/isDirectory and removes recursively", async () => {
    const fs = createFileSystem(dir);
    await fs.mkdir("x/y");
    await fs.writeText("x/y/z", "");
    expect(await fs.exists("x/y/z")).toBe(true);
    expect(await fs.isDirectory("x/y")).toBe(true);
    expect(await fs.isDirectory("x/y/z")).toBe(false);
    expect(await fs.exists("x/y/z/deeper")).toBe(false);
    await fs.remove("x");
    expect(await fs.exists("x")).toBe(false);
    await fs.remove("x");
  });

  it("resolves relative paths against its base directory", () => {
    const fs = createFileSystem(dir);
    expect(fs.resolve("t", "../u")).toBe(join(dir, "u"));
    expect(fs.resolve("/abs")).toBe("/abs");
  });

  it("turns paths with special characters into importable file URLs", () => {
    expect(fileUrlOf("/tmp/a b#c%d.js")).toBe("file:///tmp/a%20b%23c%25d.js");
  });
});
