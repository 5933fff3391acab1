/**
 * @module The `terraform` DriverFactory: options schema, start-up check of the binary, and one
 * TerraformDriver per task. The binary is located and its version read once, then shared.
 */
import {
  type DriverConfig, type DriverFactory, type FileSystem, type HttpClientFactory, type Logger, type ProcessRunner, type SecretMasker,
  workspaceNameProblems,
} from "../../../core/plugin-api/mod.ts";
import { afterApply } from "./after-apply.ts";
import { panosCommits } from "./panos/panos-handler.ts";
import { normalizeTerraformOptions, type TerraformBlock, terraformOptionsSchema } from "./options.ts";
import { removedFieldProblems } from "./removed-fields.ts";
import { sharedStateProblems } from "./shared-state.ts";
import {
  locateTerraformBinary, readTerraformVersion, type TerraformBinary, type TerraformVersion,
} from "./terraform-binary.ts";
import { TerraformDriver } from "./terraform-driver.ts";

export interface TerraformFactoryDeps {
  readonly processes: ProcessRunner;
  readonly fs: FileSystem;
  readonly logger: Logger;
  /** The registered name; `terraform` unless an alias is wanted. */
  readonly name?: string;
  /** Aborted when the daemon stops: a wait for a held state lock ends then. */
  readonly stopping?: AbortSignal;
  /** For CTS's PAN-OS handler (`terraform_provider "panos" { auto_commit = true }`): its HTTP client and `PANOS_*` settings. */
  readonly http?: HttpClientFactory;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The daemon's secrets: masked in Terraform's captured output; PAN-OS keys join them. @default none */
  readonly secrets?: SecretMasker;
}

export function createTerraformDriverFactory(deps: TerraformFactoryDeps): DriverFactory<TerraformBlock> {
  const located = new Map<string, Promise<TerraformBinary & TerraformVersion>>();

  function binaryFor(driver: DriverConfig<TerraformBlock>, signal: AbortSignal): Promise<TerraformBinary & TerraformVersion> {
    const options = normalizeTerraformOptions(driver.options);
    let found = located.get(options.path);
    if (!found) {
      found = (async () => {
        const binary = await locateTerraformBinary(options.path, deps.processes, deps.fs);
        if (binary.insteadOf !== undefined) {
          // CTS would download Terraform into `path`; this runtime never downloads.
          deps.logger.warn("no Terraform in the configured path, using the one on PATH (nothing is downloaded)", {
            configured: binary.insteadOf, path: binary.path,
          });
        }
        const version = await readTerraformVersion(binary, deps.processes, signal);
        if (options.version && options.version !== version.version) {
          deps.logger.warn("configured version differs from the binary found; using the binary", {
            configured: options.version, found: version.version, path: binary.path,
          });
        }
        deps.logger.info("found binary", { path: binary.path, product: version.flavour, version: version.version });
        return { ...binary, ...version };
      })();
      // A failed lookup is retried next time (the user may install the binary meanwhile).
      found.catch(() => located.delete(options.path));
      located.set(options.path, found);
    }
    return found;
  }

  return {
    name: deps.name ?? "terraform",
    optionsSchema: terraformOptionsSchema,
    validate: (options, config) => [...removedFieldProblems(options), ...sharedStateProblems(options, config)],
    // The task's name is its workspace's name.
    validateTask: (task) => workspaceNameProblems(task.name),
    async verify(driver, signal) {
      const binary = await binaryFor(driver, signal);
      return `${binary.flavour} ${binary.version}`;
    },
    async create(task, ctx) {
      const options = normalizeTerraformOptions(ctx.driver.options);
      const commits = await panosCommits(ctx, {
        fs: deps.fs, env: deps.env ?? {}, ...(deps.http ? { http: deps.http } : {}), ...(deps.secrets ? { secrets: deps.secrets } : {}),
      });
      const driver = new TerraformDriver(task, ctx, {
        processes: deps.processes,
        fs: deps.fs,
        options,
        binary: (signal) => binaryFor(ctx.driver, signal),
        ...(deps.stopping ? { stopping: deps.stopping } : {}),
        ...(deps.secrets ? { secrets: deps.secrets } : {}),
      });
      if (commits.length === 0) return driver;
      return afterApply(driver, async (signal) => {
        for (const commit of commits) await commit.run(signal);
      });
    },
  };
}
