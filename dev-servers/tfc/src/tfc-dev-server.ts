/**
 * @module startTfcDevServer: the embedded HCP Terraform-compatible server as a library. State is
 * in memory; runs execute for real with the local `terraform` (or `tofu`) in a scratch directory
 * that stop() removes. Served over HTTP, or HTTPS with a given certificate.
 */
import { CtsError } from "../../../core/plugin-api/mod.ts";
import { createFileSystem, createTempDirectory } from "../../../core/runtime/file-system.ts";
import { createProcessRunner } from "../../../core/runtime/process-runner.ts";
import { serveHttp } from "../../../core/runtime/serve-http.ts";
import { FaultInjector, type TfcDevFaults } from "./http/faults.ts";
import { HCP_TERRAFORM_RATE_LIMIT, RateLimiter } from "./http/rate-limiter.ts";
import type { ServerContext } from "./http/server-context.ts";
import { createTfcApp } from "./http/tfc-app.ts";
import { newOrganization, ORGANIZATION_NAME } from "./routes/organization-routes.ts";
import { RunEngine } from "./runs/run-engine.ts";
import { findTerraform, type TerraformBinary } from "./runs/terraform-binary.ts";
import { TerraformExecutor } from "./runs/terraform-executor.ts";
import { newSecret } from "./state/ids.ts";
import { TfcState } from "./state/tfc-state.ts";

export interface TfcDevServerOptions {
  /** @default "127.0.0.1" */
  readonly hostname?: string;
  /** @default 0 (a free port) */
  readonly port?: number;
  /** The organization that exists from the start. @default "cts-dev" */
  readonly organization?: string;
  /** The API token clients must send. @default a random token */
  readonly token?: string;
  /** Serve HTTPS with this PEM certificate and key. */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** The binary runs execute with (a name on PATH or a path). @default terraform, else tofu */
  readonly terraformBinary?: string;
  /** How many runs plan or apply at once. @default 2 */
  readonly maxConcurrentRuns?: number;
  /** API requests a second per token, answered 429 past it, as HCP Terraform does; 0 for none. @default 30 */
  readonly rateLimitPerSecond?: number;
  readonly faults?: TfcDevFaults;
}

export interface TfcDevServer {
  /** `http://127.0.0.1:<port>` (or https). */
  readonly url: string;
  /** `127.0.0.1:<port>`. */
  readonly address: string;
  readonly port: number;
  readonly organization: string;
  readonly token: string;
  /** The API rate limit per token (0: none). */
  readonly rateLimitPerSecond: number;
  /** The limit's bookkeeping: how many requests it refused (tests and benches read it). */
  readonly rateLimiter: RateLimiter;
  /** The binary runs execute with; undefined when none was found (runs then error, saying so). */
  readonly terraform: TerraformBinary | undefined;
  /** The live state (tests inspect it). */
  readonly state: TfcState;
  /** Replaces the injected faults (counters restart). */
  setFaults(faults: TfcDevFaults): void;
  /** Cancels running runs, closes the listener, removes the scratch directory. Idempotent. */
  stop(): Promise<void>;
}

/** Looks like an HCP Terraform team token. */
function randomToken(): string {
  return `${newSecret().slice(0, 14)}.atlasv1.${newSecret()}${newSecret().slice(0, 24)}`;
}

export async function startTfcDevServer(options: TfcDevServerOptions = {}): Promise<TfcDevServer> {
  const organization = options.organization ?? "cts-dev";
  if (!ORGANIZATION_NAME.test(organization)) {
    throw new CtsError("CTS_ERR_PLUGIN_OPTIONS", `Cannot start the TFC dev server: organization ${JSON.stringify(organization)} may only contain letters, digits, '-' and '_'`);
  }
  const maxConcurrentRuns = options.maxConcurrentRuns ?? 2;
  if (!Number.isInteger(maxConcurrentRuns) || maxConcurrentRuns < 1) {
    throw new CtsError("CTS_ERR_PLUGIN_OPTIONS", `Cannot start the TFC dev server: maxConcurrentRuns must be a positive integer, got ${maxConcurrentRuns}`);
  }
  const rateLimitPerSecond = options.rateLimitPerSecond ?? HCP_TERRAFORM_RATE_LIMIT;
  if (!Number.isInteger(rateLimitPerSecond) || rateLimitPerSecond < 0) {
    throw new CtsError("CTS_ERR_PLUGIN_OPTIONS", `Cannot start the TFC dev server: rateLimitPerSecond must be a whole number, 0 or more, got ${rateLimitPerSecond}`);
  }
  const hostname = options.hostname ?? "127.0.0.1";
  const token = options.token ?? randomToken();
  const processes = createProcessRunner();
  const terraform = await findTerraform(processes, options.terraformBinary);
  if (options.terraformBinary && !terraform) {
    throw new CtsError("CTS_ERR_DRIVER_BINARY", `Cannot start the TFC dev server: ${options.terraformBinary} was not found or did not report its version`);
  }
  const state = new TfcState();
  const org = newOrganization(organization, `${organization}@localhost`);
  state.organizations.set(org.id, org);
  const faults = new FaultInjector(options.faults);
  const scratchDir = await createTempDirectory("tfc-dev-runs-");
  const files = createFileSystem(scratchDir);
  const engine = new RunEngine({
    state, files, scratchDir, maxConcurrentRuns,
    terraform: terraform ? { binary: terraform, executor: new TerraformExecutor(terraform, processes) } : undefined,
    queueDelayMs: () => faults.queueDelayMs(),
    policyOverride: () => faults.policyOverride(),
  });
  const rateLimiter = new RateLimiter(rateLimitPerSecond);
  const server: ServerContext = { state, engine, faults, rateLimiter, token, defaultTerraformVersion: terraform?.version ?? "latest" };
  let http;
  try {
    http = await serveHttp({ fetch: createTfcApp(server).fetch, hostname, port: options.port ?? 0, ...(options.tls ? { tls: options.tls } : {}) });
  } catch (error) {
    await files.remove(scratchDir);
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    url: http.url,
    address: `${hostname.includes(":") ? `[${hostname}]` : hostname}:${http.port}`,
    port: http.port,
    organization,
    token,
    rateLimitPerSecond,
    rateLimiter,
    terraform,
    state,
    setFaults: (next) => faults.set(next),
    stop() {
      stopped ??= (async () => {
        await engine.stop();
        await http.close();
        await files.remove(scratchDir);
      })();
      return stopped;
    },
  };
}
