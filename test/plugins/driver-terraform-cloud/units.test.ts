/**
 * The driver's pure parts against real references: its tar.gz read back by the system `tar`, and the
 * plan summary from HCP Terraform's structured (JSON lines) log, which CTS printed raw (CTS GH-425).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { planSummary, plannedChanges } from "../../../plugins/driver-terraform-cloud/src/plan-summary.ts";
import { tarGzOf } from "../../../plugins/driver-terraform-cloud/src/tar-gz.ts";

test("the upload archive unpacks with tar, long paths and UTF-8 included, and is byte-for-byte stable", async () => {
  const long = `module/${"deep/".repeat(25)}main.tf`;
  const files = { "main.tf": "# é ✓\n", [long]: "x".repeat(1000), "variables.tf": "" };
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
