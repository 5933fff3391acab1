/** @module Finds the local `terraform` (or `tofu`) that runs execute with, and its version. */
import type { ProcessRunner } from "../../../../core/plugin-api/mod.ts";

export interface TerraformBinary {
  /** Absolute path of the binary. */
  readonly path: string;
  /** e.g. `1.11.4`. */
  readonly version: string;
  /** e.g. `linux_amd64`. */
  readonly platform: string;
}

/** `preferred` (a name or path) first, else `terraform`, else `tofu`; undefined when none is found. */
export async function findTerraform(processes: ProcessRunner, preferred?: string): Promise<TerraformBinary | undefined> {
  for (const name of preferred ? [preferred] : ["terraform", "tofu"]) {
    const path = await processes.which(name);
    if (!path) continue;
    const result = await processes.run(path, ["version", "-json"]);
    if (result.exitCode !== 0) continue;
    try {
      const info = JSON.parse(result.stdout) as { terraform_version?: string; platform?: string };
      if (info.terraform_version) return { path, version: info.terraform_version, platform: info.platform ?? "unknown" };
    } catch {
      const match = /v(\d+\.\d+\.\d+\S*)/.exec(result.stdout);
      if (match) return { path, version: match[1]!, platform: "unknown" };
    }
  }
  return undefined;
}
