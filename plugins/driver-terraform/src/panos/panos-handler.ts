/**
 * @module The PAN-OS commits a task makes after each apply: one per `terraform_provider "panos"` of the
 * task with `auto_commit = true` (CTS's panos handler; without auto_commit the handler does nothing).
 * Settings are checked when the task's driver is created, so a missing admin username fails the task
 * at start, as in CTS.
 */
import {
  CtsError, type DriverContext, type FileSystem, type HttpClientFactory, type SecretMasker,
} from "../../../../core/plugin-api/mod.ts";
import { PanosCommit } from "./panos-commit.ts";
import { panosSettings } from "./panos-settings.ts";
import { PanosXmlApi } from "./panos-xml-api.ts";

export interface PanosDeps {
  readonly http?: HttpClientFactory;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fs: FileSystem;
  /** Told the password and API keys, so nothing the daemon records or serves shows them. */
  readonly secrets?: SecretMasker;
}

/** The commits to run after each apply of the task `ctx` belongs to (none when no panos provider auto-commits). */
export async function panosCommits(ctx: DriverContext, deps: PanosDeps): Promise<PanosCommit[]> {
  const commits: PanosCommit[] = [];
  for (const provider of ctx.providers) {
    if (provider.name !== "panos" || provider.auto_commit !== true) continue;
    if (!deps.http) throw new CtsError("CTS_ERR_DRIVER", `Cannot commit through terraform_provider "${provider.id}": no HTTP client was given to the driver`);
    const settings = await panosSettings(provider, deps.env, deps.fs);
    const source = `terraform_provider "${provider.id}"`;
    deps.secrets?.add(settings.password, `${source}.password`);
    deps.secrets?.add(settings.apiKey, `${source}.api_key`);
    const http = deps.http.create({ tls: { verify: settings.verifyCertificate } });
    commits.push(new PanosCommit({
      api: new PanosXmlApi(http, settings, (key) => deps.secrets?.add(key, `${source} (PAN-OS keygen)`)),
      username: settings.username,
      logger: ctx.logger.child("panos", { provider: provider.id }),
    }));
  }
  return commits;
}
