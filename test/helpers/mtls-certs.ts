/**
 * @module Client certificates for an mTLS verdict matrix, made with the real `openssl` in a temp
 * dir: two client CAs with one subject and no key identifiers (the case OpenSSL's issuer lookup
 * gets wrong), a server CA and certificate for 127.0.0.1, and one client certificate per case a
 * server must judge (valid, from the second same-subject CA, self-signed, expired, not yet valid,
 * from an unknown CA, issued by a certificate without the CA flag, server-auth only).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CLIENT_CASES = [
  "valid", "second same-subject CA", "no certificate", "self-signed", "expired", "not yet valid", "unknown CA",
  "issued by a certificate without the CA flag", "server-auth only",
] as const;
export type ClientCase = typeof CLIENT_CASES[number];

export interface ClientIdentity {
  /** PEM chain the client sends (leaf first). */
  readonly cert: string;
  readonly key: string;
}

export interface MtlsCerts {
  readonly dir: string;
  /** PEM of the CA that signed the server's certificate (clients trust it). */
  readonly serverCa: string;
  readonly serverCertPath: string;
  readonly serverKeyPath: string;
  /** The first client CA alone. */
  readonly oneCaPath: string;
  /** Both client CAs of one subject. */
  readonly twinCasPath: string;
  readonly clients: Readonly<Record<ClientCase, ClientIdentity | undefined>>;
  cleanup(): void;
}

/** No subject or authority key identifiers: only the name links a certificate to its issuer. */
const CA_CONFIG = `[req]
distinguished_name = dn
x509_extensions = ca_ext
prompt = no
[dn]
CN = Client CA
[ca_ext]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = none
authorityKeyIdentifier = none
[ca]
default_ca = signer
[signer]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any_name
email_in_dn = no
unique_subject = no
[any_name]
commonName = supplied
`;

function openssl(args: string[], cwd: string): void {
  execFileSync("/usr/bin/openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

export function makeMtlsCerts(): MtlsCerts {
  const dir = mkdtempSync(join(tmpdir(), "cts-mtls-matrix-"));
  const file = (name: string) => join(dir, name);
  writeFileSync(file("ca.cnf"), CA_CONFIG);
  writeFileSync(file("index.txt"), "");
  writeFileSync(file("serial"), "1000\n");
  const selfSigned = (name: string, subject: string, extensions: string[]) =>
    openssl(["req", "-x509", "-config", "ca.cnf", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", subject,
      ...extensions.flatMap((extension) => ["-addext", extension]), "-keyout", `${name}.key`, "-out", `${name}.pem`], dir);
  /** A leaf signed by `issuer` (its .pem and .key), valid from `start` to `end` (openssl ca dates). */
  const leaf = (name: string, issuer: string, extensions: string, dates: string[] = ["-days", "2"]) => {
    writeFileSync(file(`${name}.ext`), `${extensions}subjectKeyIdentifier=none\nauthorityKeyIdentifier=none\n`);
    openssl(["req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${name}`, "-keyout", `${name}.key`, "-out", `${name}.csr`], dir);
    openssl(["ca", "-batch", "-notext", "-config", "ca.cnf", "-cert", `${issuer}.pem`, "-keyfile", `${issuer}.key`, "-in", `${name}.csr`,
      "-out", `${name}.pem`, "-extfile", `${name}.ext`, ...dates], dir);
  };
  selfSigned("client-ca-1", "/CN=Client CA", []);
  selfSigned("client-ca-2", "/CN=Client CA", []);
  selfSigned("other-ca", "/CN=Other CA", []);
  selfSigned("server-ca", "/CN=Server CA", []);
  leaf("server", "server-ca", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  const client = "extendedKeyUsage=clientAuth\n";
  leaf("valid", "client-ca-1", client);
  leaf("twin", "client-ca-2", client);
  leaf("expired", "client-ca-1", client, ["-startdate", "20200101000000Z", "-enddate", "20200201000000Z"]);
  leaf("future", "client-ca-1", client, ["-startdate", "20990101000000Z", "-enddate", "20990201000000Z"]);
  leaf("stranger", "other-ca", client);
  leaf("server-only", "client-ca-1", "extendedKeyUsage=serverAuth\n");
  // A valid client certificate used as an issuer: it has no CA flag, so nothing it signs is trusted.
  leaf("forged", "valid", client);
  selfSigned("self", "/CN=self", ["extendedKeyUsage=clientAuth"]);
  const read = (name: string) => readFileSync(file(name), "utf8");
  writeFileSync(file("one-ca.pem"), read("client-ca-1.pem"));
  writeFileSync(file("twin-cas.pem"), read("client-ca-1.pem") + read("client-ca-2.pem"));
  const identity = (name: string, chain: string[] = []): ClientIdentity =>
    ({ cert: [read(`${name}.pem`), ...chain.map((extra) => read(`${extra}.pem`))].join(""), key: read(`${name}.key`) });
  return {
    dir,
    serverCa: read("server-ca.pem"),
    serverCertPath: file("server.pem"),
    serverKeyPath: file("server.key"),
    oneCaPath: file("one-ca.pem"),
    twinCasPath: file("twin-cas.pem"),
    clients: {
      "valid": identity("valid"),
      "second same-subject CA": identity("twin"),
      "no certificate": undefined,
      "self-signed": identity("self"),
      "expired": identity("expired"),
      "not yet valid": identity("future"),
      "unknown CA": identity("stranger"),
      "issued by a certificate without the CA flag": identity("forged", ["valid"]),
      "server-auth only": identity("server-only"),
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
