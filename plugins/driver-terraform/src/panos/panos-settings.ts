/**
 * @module Where CTS's PAN-OS handler connects, from a `terraform_provider "panos"` block as the
 * provider and CTS's handler read it: each setting from the block, else its `PANOS_*` environment
 * variable, else the block's `json_config_file` (the panos provider's precedence). The admin
 * `username` scopes the partial commit; without one CTS refuses the provider.
 */
import { CtsError, type FileSystem, type ProviderConfig } from "../../../../core/plugin-api/mod.ts";

export interface PanosSettings {
  /** `https://host[:port]/api` */
  readonly apiUrl: string;
  readonly username: string;
  readonly password: string;
  /** Empty: a key is generated from username and password (`type=keygen`). */
  readonly apiKey: string;
  /** For Panorama-managed firewalls (`target` serial number); empty otherwise. */
  readonly target: string;
  readonly timeoutMs: number;
  /** The panos provider's default is false (self-signed firewall certificates). */
  readonly verifyCertificate: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The provider's settings (its arguments with Vault and KV values already filled in). */
export async function panosSettings(provider: ProviderConfig, env: Env, fs: FileSystem): Promise<PanosSettings> {
  const args = provider.arguments;
  const where = `terraform_provider "${provider.id}" (auto_commit = true)`;
  const file = typeof args["json_config_file"] === "string" ? await readJsonFile(args["json_config_file"], fs, where) : {};
  const pick = (name: string, envName: string): unknown => {
    const value = args[name];
    if (value !== undefined && value !== "" && value !== 0) return value;
    const fromEnv = env[envName];
    return fromEnv !== undefined && fromEnv !== "" ? fromEnv : file[name];
  };
  const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

  const hostname = text(pick("hostname", "PANOS_HOSTNAME"));
  const username = text(pick("username", "PANOS_USERNAME"));
  const password = text(pick("password", "PANOS_PASSWORD"));
  const apiKey = text(pick("api_key", "PANOS_API_KEY"));
  const protocol = text(pick("protocol", "PANOS_PROTOCOL")) || "https";
  const port = Number(pick("port", "PANOS_PORT") ?? 0);
  const timeout = Number(pick("timeout", "PANOS_TIMEOUT") ?? 10) || 10;
  const verify = pick("verify_certificate", "PANOS_VERIFY_CERTIFICATE");

  const problem = (why: string) => new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot commit through ${where}: ${why}`);
  if (username === "") {
    throw problem("the username of the admin whose changes are committed is required (set username or PANOS_USERNAME), " +
      "so that the partial commit takes only that admin's changes");
  }
  if (hostname === "") throw problem("no hostname (set hostname or PANOS_HOSTNAME)");
  if (apiKey === "" && password === "") throw problem("no api_key or password (or PANOS_API_KEY / PANOS_PASSWORD)");
  if (protocol !== "http" && protocol !== "https") throw problem(`protocol must be "http" or "https", got "${protocol}"`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw problem(`port must be 0 to 65535, got ${port}`);
  if (!(timeout > 0 && timeout <= 600)) throw problem(`timeout must be 1 to 600 seconds, got ${timeout}`);
  return {
    apiUrl: `${protocol}://${hostname}${port > 0 ? `:${port}` : ""}/api`,
    username,
    password,
    apiKey,
    target: text(pick("target", "PANOS_TARGET")),
    timeoutMs: timeout * 1000,
    verifyCertificate: verify === true || /^(1|t|true)$/i.test(text(verify)),
  };
}

async function readJsonFile(path: string, fs: FileSystem, where: string): Promise<Record<string, unknown>> {
  try {
    const parsed = JSON.parse(await fs.readText(path)) as unknown;
    return typeof parsed === "object" && parsed !== null ? parsed as Record<string, unknown> : {};
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot commit through ${where}: cannot read json_config_file "${path}": ${why}`);
  }
}
