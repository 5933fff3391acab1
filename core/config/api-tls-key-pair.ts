/**
 * @module CTS's check of the API's TLS files when it loads its configuration (Go's
 * tls.LoadX509KeyPair): both files readable, and the key the certificate's, so that swapped or
 * mismatched files are refused before anything starts rather than when the API first listens.
 */
import type { CtsConfig } from "../plugin-api/mod.ts";
import { readTextFile, resolvePath } from "../runtime/config-files.ts";
import { keyPairProblem } from "../runtime/tls-key-pair.ts";
import type { ConfigIssue } from "./config-error.ts";

async function read(path: string): Promise<{ text: string } | { problem: string }> {
  try {
    return { text: await readTextFile(path) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { problem: code === "ENOENT" ? `open ${path}: no such file or directory` : `open ${path}: ${(error as Error).message}` };
  }
}

export async function apiTlsKeyPairIssues(config: CtsConfig, fileOf: (path: string) => string | undefined, cwd: string): Promise<ConfigIssue[]> {
  const { cert, key } = config.tls;
  // A missing one is reported by the config rules.
  if (cert === "" || key === "") return [];
  const file = fileOf("tls") ?? "";
  const [certFile, keyFile] = await Promise.all([read(resolvePath(cwd, cert)), read(resolvePath(cwd, key))]);
  const unreadable: ConfigIssue[] = [];
  if ("problem" in certFile) unreadable.push({ file, path: "tls.cert", message: `cannot read the certificate (${certFile.problem})` });
  if ("problem" in keyFile) unreadable.push({ file, path: "tls.key", message: `cannot read the private key (${keyFile.problem})` });
  if ("problem" in certFile || "problem" in keyFile) return unreadable;
  const problem = keyPairProblem(certFile.text, keyFile.text);
  if (problem === undefined) return [];
  return [{ file, path: "tls.key", message: `must be the private key of the certificate in tls.cert (${cert}), and it is not (${problem})` }];
}
