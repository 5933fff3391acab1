/**
 * @module The `tls {}` config block → the kernel's `httpListen.tls` (PEM contents, not paths).
 * File access is passed in, so this stays runtime-agnostic; core/cli/boot-daemon.ts passes
 * core/runtime/config-files.ts's `readTextFile` and `listFilesUnder`.
 */
import type { ApiTlsConfig } from "../plugin-api/mod.ts";
import { CtsError, errorMessage } from "../plugin-api/mod.ts";

export interface ApiTlsListen {
  readonly cert: string;
  readonly key: string;
  readonly ca?: string;
  readonly requestCert?: boolean;
}

export interface TlsFileAccess {
  readText(path: string): Promise<string>;
  /** Full paths of the files under `dir`, subdirectories included (CTS walks `ca_path`). */
  listFiles(dir: string): Promise<string[]>;
}

async function read(files: TlsFileAccess, path: string, what: string): Promise<string> {
  try {
    return await files.readText(path);
  } catch (error) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot read tls.${what} "${path}": ${errorMessage(error)}`);
  }
}

/**
 * `undefined` when TLS is off. `verify_incoming` asks for a client certificate signed by
 * `ca_cert` (which wins) or any PEM file of `ca_path`.
 */
export async function apiTlsOptions(tls: ApiTlsConfig, files: TlsFileAccess): Promise<ApiTlsListen | undefined> {
  if (!tls.enabled) return undefined;
  if (tls.cert === "" || tls.key === "") {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", "Cannot serve the API over TLS: tls.cert and tls.key are both required");
  }
  const cert = await read(files, tls.cert, "cert");
  const key = await read(files, tls.key, "key");
  let ca: string | undefined;
  if (tls.ca_cert !== "") {
    ca = await read(files, tls.ca_cert, "ca_cert");
  } else if (tls.ca_path !== "") {
    let paths: string[];
    try {
      paths = await files.listFiles(tls.ca_path);
    } catch (error) {
      throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot read tls.ca_path "${tls.ca_path}": ${errorMessage(error)}`);
    }
    const pems = await Promise.all(paths.map((path) => read(files, path, "ca_path")));
    // As CTS (go-rootcerts): every file under the directory must hold PEM certificates.
    pems.forEach((pem, index) => {
      if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
        throw new CtsError("CTS_ERR_CONFIG_INVALID", `Cannot read tls.ca_path "${tls.ca_path}": ${paths[index]} holds no PEM certificate`);
      }
    });
    ca = pems.join("\n");
  }
  if (tls.verify_incoming && ca === undefined) {
    throw new CtsError("CTS_ERR_CONFIG_INVALID", "Cannot verify client certificates: tls.verify_incoming needs tls.ca_cert or tls.ca_path");
  }
  return { cert, key, ...(ca !== undefined ? { ca } : {}), ...(tls.verify_incoming ? { requestCert: true } : {}) };
}
