/**
 * @module Finding the Terraform or OpenTofu binary and reading its version.
 *
 * `path` may name a directory (holding `terraform` or `tofu`) or the binary itself. Without it,
 * `terraform` on PATH is used, else `tofu` on PATH. Any version is accepted: there is no upper
 * bound to bump with each release. A `path` directory without a binary is where CTS would
 * download Terraform; nothing is downloaded here, so the binary on PATH is used instead (the
 * caller warns), and only when PATH has none either is it an error.
 */
import { CtsError, type FileSystem, type ProcessRunner } from "../../../core/plugin-api/mod.ts";

export type TerraformFlavour = "terraform" | "tofu";

export interface TerraformBinary {
  readonly path: string;
  readonly flavour: TerraformFlavour;
  /** Set when `path` (a directory) held no binary and PATH's was taken instead. */
  readonly insteadOf?: string;
}

export interface TerraformVersion {
  readonly flavour: TerraformFlavour;
  readonly version: string;
}

const BINARY_NAMES: readonly TerraformFlavour[] = ["terraform", "tofu"];

/** The flavour a binary's file name suggests (`tofu`, `tofu-1.8`, ... → tofu). */
export function flavourOf(path: string): TerraformFlavour {
  const base = path.split(/[\\/]/).pop() ?? path;
  return /^tofu/i.test(base) ? "tofu" : "terraform";
}

const FIX_HINT = 'install Terraform or OpenTofu on PATH, or set driver "terraform" { path = "/dir/with/terraform" }';

/** Locates the binary; throws CTS_ERR_DRIVER_BINARY with the one line that fixes it. */
export async function locateTerraformBinary(
  configuredPath: string,
  processes: ProcessRunner,
  fs: FileSystem,
): Promise<TerraformBinary> {
  if (configuredPath) {
    const absolute = fs.resolve(configuredPath);
    if (await fs.isDirectory(absolute)) {
      for (const name of BINARY_NAMES) {
        const candidate = fs.resolve(absolute, name);
        if (await fs.exists(candidate)) return { path: candidate, flavour: name };
      }
      for (const name of BINARY_NAMES) {
        const found = await processes.which(name);
        if (found) return { path: found, flavour: name, insteadOf: absolute };
      }
      throw new CtsError(
        "CTS_ERR_DRIVER_BINARY",
        `Cannot find Terraform: ${absolute} holds neither "terraform" nor "tofu" and PATH has neither; put one there, or set driver "terraform" { path = "/path/to/terraform-or-tofu" }`,
      );
    }
    if (await fs.exists(absolute)) return { path: absolute, flavour: flavourOf(absolute) };
    throw new CtsError(
      "CTS_ERR_DRIVER_BINARY",
      `Cannot find Terraform: driver "terraform" path ${absolute} does not exist; ${FIX_HINT}`,
    );
  }
  for (const name of BINARY_NAMES) {
    const found = await processes.which(name);
    if (found) return { path: found, flavour: name };
  }
  throw new CtsError("CTS_ERR_DRIVER_BINARY", `Cannot find Terraform: neither "terraform" nor "tofu" is on PATH; ${FIX_HINT}`);
}

/** Parses `version -json` (both Terraform and OpenTofu print `terraform_version`). */
export function parseVersionJson(stdout: string, flavour: TerraformFlavour): TerraformVersion | undefined {
  try {
    const parsed = JSON.parse(stdout) as { terraform_version?: unknown; tofu_version?: unknown };
    const version = parsed.terraform_version ?? parsed.tofu_version;
    return typeof version === "string" ? { flavour, version } : undefined;
  } catch {
    return undefined;
  }
}

/** Parses the first line of plain `version` (`Terraform v1.11.4` / `OpenTofu v1.8.0`). */
export function parseVersionText(stdout: string): TerraformVersion | undefined {
  const match = /^(Terraform|OpenTofu)\s+v(\S+)/m.exec(stdout);
  if (!match) return undefined;
  return { flavour: match[1] === "OpenTofu" ? "tofu" : "terraform", version: match[2]! };
}

/** Runs the binary to read its version; a binary that cannot run is reported as such. */
export async function readTerraformVersion(
  binary: TerraformBinary,
  processes: ProcessRunner,
  signal?: AbortSignal,
): Promise<TerraformVersion> {
  let stdout = "";
  let stderr = "";
  try {
    const result = await processes.run(binary.path, ["version", "-json"], { signal, env: { CHECKPOINT_DISABLE: "1" } });
    stdout = result.stdout;
    stderr = result.stderr;
    const parsed = result.exitCode === 0 ? parseVersionJson(stdout, binary.flavour) : undefined;
    if (parsed) return parsed;
    // Very old releases have no -json; their text output still names the version.
    const text = await processes.run(binary.path, ["version"], { signal, env: { CHECKPOINT_DISABLE: "1" } });
    const fromText = parseVersionText(text.stdout);
    if (fromText) return fromText;
    stderr ||= text.stderr;
  } catch (error) {
    if (signal?.aborted) throw error;
    stderr = error instanceof Error ? error.message : String(error);
  }
  throw new CtsError(
    "CTS_ERR_DRIVER_BINARY",
    `Cannot run ${binary.path} version: ${(stderr || stdout).trim().split("\n")[0] || "no version in its output"}; ${FIX_HINT}`,
  );
}
