/**
 * @module The `-tls-cert-file` / `-tls-key-file` pair of the dev-server commands: both or neither,
 * read relative to the working directory, with an error that names what could not be read.
 */
import { errorMessage, type CliFlagSpec, type FileSystem } from "../../core/plugin-api/mod.ts";

export const tlsFlags: readonly CliFlagSpec[] = [
  { name: "tls-cert-file", type: "string", placeholder: "<file>", help: "Serve HTTPS with this PEM certificate (needs -tls-key-file)." },
  { name: "tls-key-file", type: "string", placeholder: "<file>", help: "PEM private key of -tls-cert-file." },
];

/** `{}` for plain HTTP, `{ tls: { cert, key } }` for HTTPS; throws a readable error otherwise. */
export async function tlsFromFlags(flags: Record<string, unknown>, files: FileSystem): Promise<{ tls?: { cert: string; key: string } }> {
  const certFile = flags["tls-cert-file"] as string | undefined;
  const keyFile = flags["tls-key-file"] as string | undefined;
  if (!certFile && !keyFile) return {};
  if (!certFile || !keyFile) throw new Error("-tls-cert-file and -tls-key-file go together");
  try {
    return { tls: { cert: await files.readText(certFile), key: await files.readText(keyFile) } };
  } catch (error) {
    throw new Error(`cannot read the TLS certificate or key: ${errorMessage(error)}`);
  }
}
