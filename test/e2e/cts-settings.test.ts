/**
 * Issue 26, "every CTS setting does what it says", through the real CLI: settings CTS Enterprise users
 * carry load (the licence, said at INFO), settings CTS refuses are refused with what to write instead,
 * and settings CTS ignores load with a warning naming them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../harness/run-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "cts-settings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

// Nothing listens on port 1: a run that contacted Consul would fail, and -once with no task does not.
const consul = `consul {\n  address = "127.0.0.1:1"\n}\n`;

describe.concurrent("CTS Enterprise's licence settings", () => {
  const file = configFile("enterprise.hcl", `license_path = "/etc/cts/license.hclic"
license {
  path = "/etc/cts/license.hclic"
  auto_retrieval {
    enabled = true
  }
}
${consul}`);

  it("validate accepts them", async () => {
    const result = await runCli("node", ["validate", `-config-file=${file}`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("The configuration is valid");
  });

  it("start says at INFO, per field, that no licence is needed", async () => {
    const result = await runCli("node", ["start", "-once", `-config-file=${file}`]);
    expect(result.code, result.stderr).toBe(0);
    for (const field of ["license_path", "license.path", "license.auto_retrieval.enabled"]) {
      expect(result.stderr).toMatch(new RegExp(`\\[INFO\\]  ctrl: accepted without effect: cts-runtime needs no licence.*field=${field.replace(/\./g, "\\.")} file=\\S*enterprise\\.hcl`));
    }
    expect(result.stderr).not.toContain("[WARN]");
  });
});

describe.concurrent("settings CTS ignores", () => {
  it("load with a warning naming each (client_type in a file, consul.kv_namespace)", async () => {
    const file = configFile("ignored.hcl", `client_type = "development"\nconsul {\n  address      = "127.0.0.1:1"\n  kv_namespace = "team-a"\n}\n`);
    const result = await runCli("node", ["validate", `-config-file=${file}`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`==> Warning: ${file}: client_type: accepted without effect: CTS takes the client type from the -client-type flag only`);
    expect(result.stderr).toContain(`==> Warning: ${file}: consul.kv_namespace: accepted without effect: CTS reads it and never uses it`);
  });
});

describe.concurrent("driver \"terraform\" { working_dir }", () => {
  it("is refused as CTS 0.5 and later refuse it, saying what to set instead", async () => {
    const file = configFile("driver-working-dir.hcl", `driver "terraform" {\n  working_dir = "/var/cts"\n}\n${consul}`);
    for (const result of await Promise.all(["validate", "start"].map((command) => runCli("node", [command, `-config-file=${file}`])))) {
      expect(result.code, result.stderr).toBe(15);
      expect(result.stderr).toContain(`${file}: driver.terraform.working_dir: was removed in CTS 0.5 and is refused as CTS refuses it: ` +
        "set the top-level working_dir (each task then works in <working_dir>/<task name>) or the task's working_dir");
    }
  });
});
