/**
 * TLS and mTLS for the API: the `tls {}` block turned into the kernel's listen options
 * (apiTlsOptions), served by the real kernel, reached by the CLI's client with CA and client
 * certificates. Certificates are made by openssl in a temp dir for this test only.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFromFlags } from "../../../core/cli/api-client.ts";
import { clientFlags } from "../../../core/cli/api-client.ts";
import { parseFlags } from "../../../core/cli/parse-flags.ts";
import { runCli } from "../../../core/cli/run-cli.ts";
import { listRegularFiles, readTextFile } from "../../../core/runtime/config-files.ts";
import { apiTlsOptions } from "../../../core/http/api-tls-options.ts";
import { makeTestCerts, type TestCerts } from "./helpers/certs.ts";
import { startApiKernel, type ApiKernel } from "./helpers/api-kernel.ts";
import { bufferIo } from "./helpers/cli-io.ts";

const files = { readText: readTextFile, listFiles: listRegularFiles };

async function clientFor(argv: string[], env: Record<string, string> = {}) {
  const io = bufferIo([], env);
  return clientFromFlags(parseFlags(argv, clientFlags, env), io);
}

describe("API over TLS", () => {
  let certs: TestCerts;
  let tlsOnly: ApiKernel;
  let mtls: ApiKernel;

  beforeAll(async () => {
    certs = makeTestCerts();
    const base = { enabled: true, cert: certs.serverCert, key: certs.serverKey, ca_cert: "", ca_path: "" };
    const plain = await apiTlsOptions({ ...base, verify_incoming: false }, files);
    tlsOnly = await startApiKernel({ tls: plain! });
    // ca_path: a directory holding the CA, as CTS allows.
    const caDir = path.join(certs.dir, "cas");
    mkdirSync(caDir);
    copyFileSync(certs.caCert, path.join(caDir, "ca.pem"));
    const mutual = await apiTlsOptions({ ...base, verify_incoming: true, ca_path: caDir }, files);
    expect(mutual?.requestCert).toBe(true);
    mtls = await startApiKernel({ tls: mutual! });
  });
  afterAll(async () => {
    await tlsOnly?.stop();
    await mtls?.stop();
    certs?.cleanup();
  });

  it("refuses incomplete TLS settings", async () => {
    const none = { enabled: true, cert: "", key: "", verify_incoming: false, ca_cert: "", ca_path: "" };
    await expect(apiTlsOptions(none, files)).rejects.toThrow(/tls.cert and tls.key/);
    const noCa = { ...none, cert: certs.serverCert, key: certs.serverKey, verify_incoming: true };
    await expect(apiTlsOptions(noCa, files)).rejects.toThrow(/verify_incoming needs/);
    expect(await apiTlsOptions({ ...none, enabled: false }, files)).toBeUndefined();
  });

  it("serves HTTPS to a client trusting the CA, and refuses one that does not", async () => {
    expect(tlsOnly.url).toMatch(/^https:/);
    const trusted = await clientFor([`-http-addr=${tlsOnly.url}`, `-ca-cert=${certs.caCert}`]);
    expect((await trusted.request("GET", "/v1/health")).body).toEqual({});
    const untrusted = await clientFor([`-http-addr=${tlsOnly.url}`]);
    await expect(untrusted.request("GET", "/v1/health")).rejects.toThrow(/Cannot reach the daemon/);
    const unverified = await clientFor([`-http-addr=${tlsOnly.url}`, "-ssl-verify=false"]);
    expect((await unverified.request("GET", "/v1/health")).status).toBe(200);
    const plainHttp = await clientFor([`-http-addr=${tlsOnly.url.replace("https:", "http:")}`]);
    await expect(plainHttp.request("GET", "/v1/health")).rejects.toThrow(/use an https:\/\/ address/);
  });

  it("mTLS: accepts a client certificate signed by the CA, refuses none or a stranger's", async () => {
    const env = { CTS_ADDRESS: mtls.url, CTS_CACERT: certs.caCert, CTS_CLIENT_CERT: certs.clientCert, CTS_CLIENT_KEY: certs.clientKey };
    const withCert = await clientFor([], env);
    expect((await withCert.request("GET", "/v1/status")).status).toBe(200);

    const withoutCert = await clientFor([`-http-addr=${mtls.url}`, `-ca-cert=${certs.caCert}`]);
    await expect(withoutCert.request("GET", "/v1/status")).rejects.toThrow(/Cannot reach the daemon/);
    const stranger = await clientFor([
      `-http-addr=${mtls.url}`, `-ca-cert=${certs.caCert}`, `-client-cert=${certs.strangerCert}`, `-client-key=${certs.strangerKey}`,
    ]);
    await expect(stranger.request("GET", "/v1/status")).rejects.toThrow(/Cannot reach the daemon/);

    // The CLI end to end with the same environment.
    const io = bufferIo([], env);
    expect(await runCli(["status"], io)).toBe(0);
    expect(io.stdout.join("")).toContain("No tasks");
    const refused = bufferIo([], { ...env, CTS_CLIENT_CERT: "", CTS_CLIENT_KEY: "" });
    expect(await runCli(["status"], refused)).toBe(11);
  });

  it("requires -client-cert and -client-key together", async () => {
    await expect(clientFor([`-http-addr=${mtls.url}`, `-client-cert=${certs.clientCert}`])).rejects.toThrow(/together/);
  });
});
