/**
 * @module Reads a client TLS block's files (CA file, every certificate in a CA directory, client
 * certificate and key) through the FileSystem service, so a plugin's HTTP client stays
 * runtime-agnostic. Errors name the service, the field and the path.
 */
import { CtsError } from "./errors.ts";
import type { TlsFilesConfig } from "./config.ts";
import type { FileSystem } from "./services/file-system.ts";

export interface TlsMaterial {
  readonly ca: readonly string[];
  readonly cert?: string;
  readonly key?: string;
}

/** `service` names the block in errors: "Consul" → `Cannot read Consul TLS ca_cert "/x": ...`. */
export async function readTlsFiles(tls: TlsFilesConfig, fs: FileSystem, service: string): Promise<TlsMaterial> {
  const read = async (what: string, path: string): Promise<string> => {
    try {
      return await fs.readText(path);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot read ${service} TLS ${what} "${path}": ${why}`);
    }
  };
  const ca: string[] = [];
  if (tls.ca_cert) ca.push(await read("ca_cert", tls.ca_cert));
  if (tls.ca_path) {
    // Same rule as the API's tls.ca_path (core/http/api-tls-options.ts): every regular file that
    // holds a certificate, whatever its name.
    for (const name of (await fs.readDir(tls.ca_path)).sort()) {
      const path = fs.resolve(tls.ca_path, name);
      if (await fs.isDirectory(path)) continue;
      const pem = await read("ca_path file", path);
      if (pem.includes("-----BEGIN CERTIFICATE-----")) ca.push(pem);
    }
  }
  return Object.freeze({
    ca,
    ...(tls.cert ? { cert: await read("cert", tls.cert) } : {}),
    ...(tls.key ? { key: await read("key", tls.key) } : {}),
  });
}
