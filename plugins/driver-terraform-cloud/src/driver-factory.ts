/**
 * @module The `terraform-cloud` DriverFactory: options (with env fallbacks) and one HTTP client with
 * the `tls` settings, shared by every task, and a start-up check that the organization answers to
 * the token (a wrong token fails start with HCP Terraform's answer, not the first run).
 */
import {
  CtsError, type DriverConfig, type DriverFactory, type FileSystem, type HttpClient, type HttpClientFactory, type HttpClientTls,
  type Logger, readTlsFiles, type SecretMasker, type TerraformRootModule, type VaultSecrets, workspaceNameProblems,
} from "../../../core/plugin-api/mod.ts";
import {
  normalizeTerraformCloudOptions, type TerraformCloudBlock, terraformCloudOptionsSchema, type TerraformCloudOptions,
} from "./options.ts";
import { TerraformCloudDriver } from "./terraform-cloud-driver.ts";
import { readsVault, TEMPLATE_FIELDS, tokenProblems } from "./token-template.ts";
import { completeWorkspaceFields, workspaceProblems, workspaceTaskBlocks } from "./workspace-block.ts";
import type { RequestBudget } from "./request-budget.ts";
import { RunBoard } from "./run-board.ts";
import { CTS_TAG } from "./workspace.ts";
import { TfcClient } from "./tfc-client.ts";

const NEVER: AbortSignal = new AbortController().signal;

export interface TerraformCloudFactoryDeps {
  readonly http: HttpClientFactory;
  readonly fs: FileSystem;
  readonly logger: Logger;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** driver-terraform's root-module renderer (`terraformRootModuleToken`). */
  readonly rootModule: TerraformRootModule;
  /** Reads a `{{ with secret }}` token from Vault (the plugin passes it; tests and benches may not). */
  readonly vault?: VaultSecrets;
  /** The daemon's secret masker: learns the token, masks run logs. @default none (tests, benches) */
  readonly secrets?: Pick<SecretMasker, "add" | "mask">;
  /** Aborts at daemon stop: waits on runs end. @default never */
  readonly stopping?: AbortSignal;
  /** How often a run that keeps waiting is logged. @default 30 s */
  readonly waitLogIntervalMs?: number;
  /** The request budget of each driver block (tests give a smaller limit). @default HCP Terraform's 30 a second */
  readonly budget?: () => RequestBudget;
}

async function tlsOf(options: TerraformCloudOptions, fs: FileSystem): Promise<HttpClientTls | undefined> {
  const tls = options.tls;
  if (!tls.enabled) return undefined;
  const material = await readTlsFiles({ ...tls, enabled: true }, fs, 'driver "terraform-cloud"');
  return {
    verify: tls.verify,
    ...(material.ca.length > 0 ? { ca: [...material.ca] } : {}),
    ...(material.cert ? { cert: material.cert } : {}),
    ...(material.key ? { key: material.key } : {}),
    ...(tls.server_name ? { serverName: tls.server_name } : {}),
  };
}

/** The token, with a `{{ with secret }}` in it read from Vault (once per daemon, as CTS does). */
async function resolveToken(token: string, vault: VaultSecrets | undefined): Promise<string> {
  if (!readsVault(token)) return token;
  if (!vault) throw new CtsError("CTS_ERR_CONFIG_INVALID", 'Cannot use driver "terraform-cloud": its token reads Vault, and no Vault client was given');
  return (await vault.renderTemplate(token, 'driver "terraform-cloud" token')).trim();
}

type Block = DriverConfig<TerraformCloudBlock>;

export function createTerraformCloudDriverFactory(deps: TerraformCloudFactoryDeps): DriverFactory<TerraformCloudBlock> & {
  /** The shared client of a driver block (tests and benches count its requests). */
  clientFor(driver: Block): Promise<TfcClient>;
  /** The driver block's run board (benches count its sweeps). */
  boardFor(driver: Block): Promise<RunBoard>;
  /** Closes the clients' idle connections (plugin stop). */
  close(): Promise<void>;
} {
  interface Prepared {
    readonly client: TfcClient;
    readonly options: TerraformCloudOptions;
    readonly http: HttpClient;
    readonly board: RunBoard;
  }
  const clients = new Map<string, Promise<Prepared>>();

  function prepared(driver: Block): Promise<Prepared> {
    const options = normalizeTerraformCloudOptions(driver.options, deps.env);
    const key = JSON.stringify(options);
    let found = clients.get(key);
    if (!found) {
      found = (async () => {
        if (options.deprecatedWorkspacePrefix) {
          deps.logger.warn("workspace_prefix is deprecated: use workspaces { prefix = \"...\" } (note: no dash is added)", {});
        }
        const http = deps.http.create({ ...(await tlsOf(options, deps.fs).then((tls) => (tls ? { tls } : {}))) });
        const token = await resolveToken(options.token, deps.vault);
        deps.secrets?.add(token, 'driver "terraform-cloud" token');
        const client = new TfcClient({
          hostname: options.hostname, token, http, logger: deps.logger,
          ...(deps.secrets ? { secrets: deps.secrets } : {}), ...(deps.budget ? { budget: deps.budget() } : {}),
        });
        const board = new RunBoard(client, { organization: options.organization, prefix: options.workspacePrefix, tag: CTS_TAG });
        return { client, options, http, board };
      })();
      found.catch(() => clients.delete(key));
      clients.set(key, found);
    }
    return found;
  }

  return {
    name: "terraform-cloud",
    optionsSchema: terraformCloudOptionsSchema,
    templateFields: TEMPLATE_FIELDS,
    validate: tokenProblems,
    taskBlocks: workspaceTaskBlocks,
    completeTaskBlocks: completeWorkspaceFields,
    validateTask: (task) => [...workspaceProblems(task), ...workspaceNameProblems(task.name)],
    async close() {
      const all = [...clients.values()];
      clients.clear();
      for (const entry of await Promise.allSettled(all)) if (entry.status === "fulfilled") entry.value.http.close();
    },
    async clientFor(driver) {
      return (await prepared(driver)).client;
    },
    async boardFor(driver) {
      return (await prepared(driver)).board;
    },
    async verify(driver, signal) {
      const { client, options } = await prepared(driver);
      // The daemon waits for this answer: each retry is said at WARN, not hidden for half a minute.
      await client.api(`use organization "${options.organization}" at ${options.hostname}`, "GET", `/organizations/${encodeURIComponent(options.organization)}`, undefined, { signal, loud: true });
      deps.logger.info("connected to HCP Terraform", { hostname: options.hostname, organization: options.organization });
      return `HCP Terraform (${options.hostname}, organization ${options.organization})`;
    },
    async create(task, ctx) {
      const { client, options, board } = await prepared(ctx.driver);
      return new TerraformCloudDriver(task, ctx, {
        client, options, board, fs: deps.fs, logger: deps.logger, rootModule: deps.rootModule,
        stopping: deps.stopping ?? NEVER, waitLogIntervalMs: deps.waitLogIntervalMs ?? 30_000,
      });
    },
  };
}
