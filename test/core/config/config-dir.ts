/** @module Test helper: writes config files into a fresh temp directory and loads them as the CLI does. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../core/config/load-config.ts";
import { isConfigError, type ConfigIssue } from "../../../core/config/config-error.ts";
import { createKernel } from "../../../core/kernel/kernel.ts";
import { recordingLogSink } from "../kernel/kernel-fixtures.ts";
import { configToken, type CtsConfig } from "../../../core/plugin-api/mod.ts";

const root = mkdtempSync(join(tmpdir(), "cts-config-"));
let counter = 0;

export function removeConfigDirs(): void {
  rmSync(root, { recursive: true, force: true });
}

/** Writes `files` into a fresh directory and loads `config` (the first file when not given). */
export function loadFiles(files: Record<string, string>, config = Object.keys(files)[0]!) {
  const cwd = join(root, `case-${counter++}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(cwd, name, ".."), { recursive: true });
    writeFileSync(join(cwd, name), text);
  }
  return loadConfig({ paths: [{ kind: "file", path: config }], env: {}, cwd, hostName: "testhost" });
}

/** The issues a load reports; fails the test when it loads. */
export async function issuesOf(promise: Promise<unknown>): Promise<ConfigIssue[]> {
  try {
    await promise;
  } catch (error) {
    if (isConfigError(error)) return [...error.issues];
    throw error;
  }
  throw new Error("expected a ConfigError");
}

/**
 * Loads `files`, then checks their plugin-owned blocks as `validate` does: the built-in plugins
 * initialise (nothing is contacted) and the kernel checks each block against its owner.
 */
export async function ownerIssuesOf(files: Record<string, string>): Promise<ConfigIssue[]> {
  const loaded = await loadFiles(files);
  const kernel = await createKernel({
    config: loaded.config, runOptions: { mode: "validate", inspectTasks: [], resetStorage: false }, logSink: recordingLogSink(),
  });
  await kernel.init();
  try {
    return kernel.blockIssues(loaded.config, loaded.fileOf);
  } finally {
    await kernel.stop();
  }
}

/**
 * Loads `files` and initialises the built-in plugins: the config as plugins read it (each task
 * completed by its blocks' owners: decoded, defaulted), the kernel's block issues, and every
 * warning in the order `validate` prints them (the loader's, then the kernel's).
 */
export async function ownedConfigOf(
  files: Record<string, string>,
): Promise<{ config: CtsConfig; issues: ConfigIssue[]; warnings: ConfigIssue[] }> {
  const loaded = await loadFiles(files);
  const kernel = await createKernel({
    config: loaded.config, runOptions: { mode: "validate", inspectTasks: [], resetStorage: false }, logSink: recordingLogSink(),
  });
  await kernel.init();
  try {
    return {
      config: kernel.resolve(configToken),
      issues: kernel.blockIssues(loaded.config, loaded.fileOf),
      warnings: [...loaded.warnings, ...kernel.blockWarnings(loaded.config, loaded.fileOf)],
    };
  } finally {
    await kernel.stop();
  }
}
