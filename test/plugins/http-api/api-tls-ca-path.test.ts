/**
 * @module API mTLS with `tls { ca_path = "<dir>" }`: as CTS (go-rootcerts loads every certificate of
 * every file under the directory, subdirectories included, into one pool), a client certificate
 * issued by any CA of the directory is accepted, also when two of those CAs share a subject name;
 * one issued by a CA outside the directory is refused. On Node, OpenSSL alone would refuse one of
 * the same-name CAs' clients; Deno's verifier accepts both. Certificates are made by openssl here.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFlags, clientFromFlags } from "../../../core/cli/api-client.ts";
import { parseFlags } from "../../../core/cli/parse-flags.ts";
import { apiTlsOptions } from "../../../core/http/api-tls-options.ts";
import { listFilesUnder, readTextFile } from "../../../core/runtime/config-files.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { startApiDaemon, type ApiDaemon } from "./helpers/api-daemon.ts";
import { startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";
import { bufferIo } from "./helpers/cli-io.ts";

const files = { readText: readTextFile, listFiles: listFilesUnder };
const dir = mkdtempSync(path.join(tmpdir(), "cts-ca-path-"));
const at = (file: string) => path.join(dir, file);

function openssl(args: string[]): void {
  execFileSync("/usr/bin/openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
}

/** A self-signed CA; `subject` lets two CAs share one name. */
function makeCa(name: string, subject: string): void {
  openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", subject, "-keyout", `${name}.key`, "-out", `${name}.pem`]);
}

function makeLeaf(name: string, ca: string, extensions: string): void {
  writeFileSync(at(`${name}.ext`), extensions);
  openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${name}`, "-keyout", `${name}.key`, "-out", `${name}.csr`]);
  openssl(["x509", "-req", "-in", `${name}.csr`, "-CA", `${ca}.pem`, "-CAkey", `${ca}.key`, "-CAcreateserial",
    "-days", "2", "-extfile", `${name}.ext`, "-out", `${name}.pem`]);
}

async function statusWith(url: string, client: string): Promise<number | string> {
  const env = { CTS_ADDRESS: url, CTS_CACERT: at("server-ca.pem"), CTS_CLIENT_CERT: at(`${client}.pem`), CTS_CLIENT_KEY: at(`${client}.key`) };
  const api = await clientFromFlags(parseFlags([], clientFlags, env), bufferIo([], env));
  return api.request("GET", "/v1/status").then((response) => response.status, (error: Error) => error.message);
}

function makeCerts(): void {
    makeCa("server-ca", "/CN=server-ca");
    makeLeaf("server", "server-ca", "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    // Two CAs with one subject name (a rotated CA keeps its name), and one with its own name.
    makeCa("ca-old", "/O=Example/CN=Example Client CA");
    makeCa("ca-new", "/O=Example/CN=Example Client CA");
    makeCa("ca-team", "/CN=team-ca");
    makeCa("ca-outside", "/O=Example/CN=Example Client CA");
    // Without key identifiers a verifier can only find the issuer by name, and must try every CA of that name.
    for (const ca of ["ca-old", "ca-new", "ca-team", "ca-outside"]) {
      makeLeaf(`client-of-${ca}`, ca, "extendedKeyUsage=clientAuth\nsubjectKeyIdentifier=none\nauthorityKeyIdentifier=none\n");
    }
    makeLeaf("server-only-of-ca-old", "ca-old", "extendedKeyUsage=serverAuth\nsubjectKeyIdentifier=none\nauthorityKeyIdentifier=none\n");
    const cas = at("cas");
    mkdirSync(cas);
    for (const ca of ["ca-old", "ca-new"]) writeFileSync(path.join(cas, `${ca}.pem`), readFileText(`${ca}.pem`));
    // CTS walks the directory, subdirectories included.
    mkdirSync(path.join(cas, "team"));
    writeFileSync(path.join(cas, "team", "ca-team.pem"), readFileText("ca-team.pem"));
}

beforeAll(makeCerts);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("API mTLS with ca_path (kernel on Node)", () => {
  let kernel: ApiKernel;
  beforeAll(async () => {
    const cas = at("cas");
    const tls = await apiTlsOptions({
      enabled: true, cert: at("server.pem"), key: at("server.key"), verify_incoming: true, ca_cert: "", ca_path: cas,
    }, files);
    kernel = await startApiKernel({ tls: tls! });
  }, 60_000);
  afterAll(async () => {
    await kernel?.stop();
  });

  for (const ca of ["ca-old", "ca-new", "ca-team"]) {
    it(`accepts a client certificate issued by ${ca}`, async () => {
      expect(await statusWith(kernel.url, `client-of-${ca}`)).toBe(200);
    });
  }

  it("refuses a client certificate of a CA outside the directory, even with the same subject name", async () => {
    expect(await statusWith(kernel.url, "client-of-ca-outside")).toMatch(/Cannot reach the daemon/);
  });

  it("still refuses a certificate of a CA of the directory that is not for clients", async () => {
    expect(await statusWith(kernel.url, "server-only-of-ca-old")).toMatch(/Cannot reach the daemon/);
  });

  it("a file under ca_path that holds no certificate is a clear start-up error, as in CTS", async () => {
    const broken = at("broken-cas");
    mkdirSync(broken);
    writeFileSync(path.join(broken, "ca.pem"), readFileText("ca-old.pem"));
    writeFileSync(path.join(broken, "README"), "not a certificate\n");
    await expect(apiTlsOptions({
      enabled: true, cert: at("server.pem"), key: at("server.key"), verify_incoming: true, ca_cert: "", ca_path: broken,
    }, files)).rejects.toThrow(`Cannot read tls.ca_path "${broken}": ${path.join(broken, "README")} holds no PEM certificate`);
  });

  it("refuses a client without a certificate", async () => {
    const env = { CTS_ADDRESS: kernel.url, CTS_CACERT: at("server-ca.pem") };
    const api = await clientFromFlags(parseFlags([], clientFlags, env), bufferIo([], env));
    await expect(api.request("GET", "/v1/status")).rejects.toThrow(/Cannot reach the daemon/);
  });
});

describe("API mTLS with ca_path (the daemon on Deno)", () => {
  let consul: TestConsulDevServer;
  let daemon: ApiDaemon;
  beforeAll(async () => {
    consul = await startConsulDevServer();
    daemon = await startApiDaemon({
      consulAddress: consul.address,
      scheme: "https",
      extraHcl: `tls {\n  enabled = true\n  cert = "${at("server.pem")}"\n  key = "${at("server.key")}"\n` +
        `  verify_incoming = true\n  ca_path = "${at("cas")}"\n}\n`,
      clientEnv: { CTS_CACERT: at("server-ca.pem") },
    });
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
  });

  it("accepts clients of every CA of the directory and refuses the outsider", async () => {
    for (const ca of ["ca-old", "ca-new", "ca-team"]) expect(await statusWith(daemon.url, `client-of-${ca}`), ca).toBe(200);
    expect(await statusWith(daemon.url, "client-of-ca-outside")).toMatch(/Cannot reach the daemon/);
    expect(await statusWith(daemon.url, "server-only-of-ca-old")).toMatch(/Cannot reach the daemon/);
  }, 60_000);
});

function readFileText(file: string): string {
  return execFileSync("/bin/cat", [at(file)], { encoding: "utf8" });
}
