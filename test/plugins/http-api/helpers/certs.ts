/**
 * @module Throwaway certificates made with the real `openssl` for TLS tests: a CA, a server
 * certificate for localhost/127.0.0.1 and a client certificate, all signed by that CA, plus a
 * second CA whose client certificate the server must refuse. Nothing is checked in.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestCerts {
  readonly dir: string;
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
  /** Signed by another CA. */
  readonly strangerCert: string;
  readonly strangerKey: string;
  cleanup(): void;
}

const OPENSSL = "/usr/bin/openssl";

function openssl(args: string[], cwd: string): void {
  execFileSync(OPENSSL, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

function makeCa(dir: string, name: string): void {
  openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", `/CN=${name}`,
    "-keyout", `${name}.key`, "-out", `${name}.pem`], dir);
}

function makeLeaf(dir: string, name: string, ca: string, extensions: string): void {
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${name}`, "-keyout", `${name}.key`, "-out", `${name}.csr`], dir);
  openssl(["x509", "-req", "-in", `${name}.csr`, "-CA", `${ca}.pem`, "-CAkey", `${ca}.key`, "-CAcreateserial",
    "-days", "2", "-extfile", `${name}.ext`, "-out", `${name}.pem`], dir);
}

export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(path.join(tmpdir(), "cts-api-tls-"));
  makeCa(dir, "ca");
  makeCa(dir, "other-ca");
  makeLeaf(dir, "server", "ca", "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  makeLeaf(dir, "client", "ca", "extendedKeyUsage=clientAuth\n");
  makeLeaf(dir, "stranger", "other-ca", "extendedKeyUsage=clientAuth\n");
  const at = (file: string) => path.join(dir, file);
  return {
    dir,
    caCert: at("ca.pem"),
    serverCert: at("server.pem"),
    serverKey: at("server.key"),
    clientCert: at("client.pem"),
    clientKey: at("client.key"),
    strangerCert: at("stranger.pem"),
    strangerKey: at("stranger.key"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
