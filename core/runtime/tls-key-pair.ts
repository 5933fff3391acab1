/**
 * @module Whether a PEM certificate and a PEM private key belong together (the public key in the
 * certificate is the private key's), as Go's tls.LoadX509KeyPair checks when CTS loads its config,
 * with Go's words for what is wrong (switched inputs included).
 */
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";

/** The PEM block types in `text`, in order. */
function blockTypes(text: string): string[] {
  return [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((match) => match[1]!);
}

function certificateProblem(types: readonly string[]): string {
  if (types.length === 0) return "tls: failed to find any PEM data in certificate input";
  if (types.length === 1 && types[0]!.endsWith("PRIVATE KEY")) {
    return "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched";
  }
  return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [${types.join(" ")}]`;
}

function keyProblem(types: readonly string[]): string {
  if (types.length === 0) return "tls: failed to find any PEM data in key input";
  if (types.length === 1 && types[0] === "CERTIFICATE") return "tls: found a certificate rather than a key in the PEM for the private key";
  return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [${types.join(" ")}]`;
}

/** Why `certPem` and `keyPem` cannot serve TLS together, in Go's words; undefined when they can. */
export function keyPairProblem(certPem: string, keyPem: string): string | undefined {
  const certTypes = blockTypes(certPem);
  if (!certTypes.includes("CERTIFICATE")) return certificateProblem(certTypes);
  const keyTypes = blockTypes(keyPem);
  if (!keyTypes.some((type) => type.endsWith("PRIVATE KEY"))) return keyProblem(keyTypes);
  let publicOfCertificate: Uint8Array;
  let publicOfKey: Uint8Array;
  try {
    publicOfCertificate = new X509Certificate(certPem).publicKey.export({ type: "spki", format: "der" });
  } catch (error) {
    return `x509: malformed certificate (${(error as Error).message})`;
  }
  try {
    publicOfKey = createPublicKey(createPrivateKey(keyPem)).export({ type: "spki", format: "der" });
  } catch (error) {
    return `tls: failed to parse private key (${(error as Error).message})`;
  }
  const same = publicOfKey.length === publicOfCertificate.length && publicOfKey.every((byte, i) => byte === publicOfCertificate[i]);
  return same ? undefined : "tls: private key does not match public key";
}
