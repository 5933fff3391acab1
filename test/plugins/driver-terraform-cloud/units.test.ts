/**
 * The driver's pure parts against real references: its tar.gz read back by the system `tar`, go-slug's
 * `.terraformignore` cases, and the plan summary from HCP Terraform's structured (JSON lines) log,
 * which CTS printed raw (CTS GH-425).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { planSummary, plannedChanges } from "../../../plugins/driver-terraform-cloud/src/plan-summary.ts";
import { TerraformIgnore } from "../../../plugins/driver-terraform-cloud/src/terraform-ignore.ts";
import { tarGzOf, textEntry } from "../../../plugins/driver-terraform-cloud/src/upload-archive.ts";

test("the upload archive unpacks with tar, long paths and UTF-8 included, and is byte-for-byte stable", async () => {
  const long = `module/${"deep/".repeat(25)}main.tf`;
  const files = [textEntry("main.tf", "# é ✓\n"), textEntry(long, "x".repeat(1000)), textEntry("variables.tf", "")];
  const archive = await tarGzOf(files);
  expect(Buffer.from(await tarGzOf(files)).equals(Buffer.from(archive))).toBe(true);
  const dir = mkdtempSync(join(tmpdir(), "tfc-tar-"));
  try {
    writeFileSync(join(dir, "a.tar.gz"), archive);
    const listed = execFileSync("tar", ["-tzf", join(dir, "a.tar.gz")], { encoding: "utf8" }).trim().split("\n").sort();
    expect(listed).toEqual([long, "main.tf", "variables.tf"].sort());
    execFileSync("tar", ["-xzf", join(dir, "a.tar.gz"), "-C", dir]);
    expect(readFileSync(join(dir, "main.tf"), "utf8")).toBe("# é ✓\n");
    expect(readFileSync(join(dir, long), "utf8")).toBe("x".repeat(1000));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the plan summary reads HCP Terraform's structured log lines", () => {
  const log = [
    `{"@level":"info","@message":"Terraform 1.9.5","type":"version","terraform":"1.9.5","ui":"1.2"}`,
    `{"@level":"info","@message":"module.web.terraform_data.ids: Plan to create","type":"planned_change","change":{"resource":{"addr":"module.web.terraform_data.ids","resource_type":"terraform_data"},"action":"create"}}`,
    `{"@level":"info","@message":"module.web.local_file.f: Plan to replace","type":"planned_change","change":{"resource":{"addr":"module.web.local_file.f"},"action":"replace"}}`,
    `{"@level":"info","@message":"Plan: 2 to add, 0 to change, 1 to destroy.","type":"change_summary","changes":{"add":2,"change":0,"remove":1,"operation":"plan"}}`,
  ].join("\n");
  expect(plannedChanges(log)).toEqual([["module.web.terraform_data.ids", "create"], ["module.web.local_file.f", "replace"]]);
  expect(planSummary({ add: 2, change: 0, destroy: 1 }, log, "https://app.terraform.io/app/o/workspaces/w/runs/run-1")).toBe([
    "Plan: 2 to add, 0 to change, 1 to destroy.",
    "  + module.web.terraform_data.ids (create)",
    "  -/+ module.web.local_file.f (replace)",
    "Run: https://app.terraform.io/app/o/workspaces/w/runs/run-1",
  ].join("\n"));
});

test(".terraformignore rules match as go-slug matches them", () => {
  const rules = TerraformIgnore.parse([
    "# comments are ignored", "   baz.txt", "", "terraform.d/", "!/terraform.d/", "**/foo/bar.tf", "foo/*.md",
    "bar/something-[a-z].txt", "boop.txt", "!/boop.txt",
  ].join("\n"));
  const excluded = (path: string) => rules.match(path).excluded;
  // Defaults: .terraform/ (but not .terraform/modules/) and .git/ are never uploaded.
  expect([".terraform/", ".terraform/foo/bar", ".git/HEAD"].map(excluded)).toEqual([true, true, true]);
  expect(excluded(".terraform/modules/m/main.tf")).toBe(false);
  expect(["baz.txt", "parent/foo/baz.txt", "parent/foo/bar.tf", "foo/ignored-doc.md", "bar/something-a.txt"].map(excluded))
    .toEqual([true, true, true, true, true]);
  expect(["included.txt", "parent/bar/bar.tf", "something/with-baz.txt", "something/baz.x"].map(excluded)).toEqual([false, false, false, false]);
  // terraform.d/ is ignored below the root, not at it; boop.txt everywhere but at the root.
  expect(["some-module/terraform.d/x", "terraform.d/", "terraform.d/foo", "terraform.d"].map(excluded)).toEqual([true, false, false, false]);
  expect(["baz/boop.txt", "boop.txt"].map(excluded)).toEqual([true, false]);
  // A directory matched with no negation after it is dominated: nothing below it can come back.
  expect(TerraformIgnore.parse("logs/\n").match("logs/")).toEqual({ excluded: true, dominating: true });
  expect(TerraformIgnore.parse("logs/\n!logs/keep.txt\n").match("logs/")).toEqual({ excluded: true, dominating: false });
});
