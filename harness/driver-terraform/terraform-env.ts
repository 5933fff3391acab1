/** @module Environment and temp dirs for running the real `terraform` binary in tests (no network). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The process environment minus anything that would leak state between tests. */
export function terraformTestEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !["TF_DATA_DIR", "TF_PLUGIN_CACHE_DIR", "TF_WORKSPACE", "TF_LOG"].includes(key)) {
      env[key] = value;
    }
  }
  const cliConfig = join(tmpdir(), "cts-runtime-test.terraformrc");
  writeFileSync(cliConfig, "");
  return { ...env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: cliConfig, ...extra };
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `cts-tf-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
