/**
 * TLS to Consul: CA file, client certificate, server_name and verify=false, against a real
 * HTTPS peer whose certificates openssl makes for this run.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consulQuery } from "../../../core/plugin-api/mod.ts";
import { testClient, type TestConsulConfig } from "../../../harness/consul-client/client-options.ts";

let dir: string;
let server: Server;
let port: number;
const clientNames: (string | undefined)[] = [];

function openssl(...args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
}

function issue(name: string, subject: string, ext: string): void {
  openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", `${name}.key`,
    "-out", `${name}.csr`, "-subj", subject);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
    "-out", `${name}.pem`, "-days", "1", "-extfile", `${name}.ext`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cts-consul-tls-"));
  openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key",
    "-out", "ca.pem", "-days", "1", "-subj", "/CN=cts test ca");
  // The server certificate names only consul.test, so 127.0.0.1 verifies only with server_name.
  issue("server", "/CN=consul.test", "subjectAltName=DNS:consul.test\n");
  issue("client", "/CN=cts-client", "extendedKeyUsage=clientAuth\n");
  const read = (file: string) => readFileSync(join(dir, file), "utf8");
  server = createServer(
    { key: read("server.key"), cert: read("server.pem"), ca: read("ca.pem"), requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      clientNames.push(socket.authorized ? String(socket.getPeerCertificate().subject?.CN) : undefined);
      res.writeHead(200, { "content-type": "application/json", "x-consul-index": "1" });
      res.end(JSON.stringify("127.0.0.1:8300"));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const tls = (fields: Partial<TestConsulConfig["tls"]>): TestConsulConfig["tls"] => ({
  enabled: true, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "", ...fields,
});

async function leader(overrides: Partial<TestConsulConfig>, address = `127.0.0.1:${port}`) {
  const { client } = await testClient(address, overrides);
  try {
    return await client.query(consulQuery("/v1/status/leader"), { retry: false });
  } finally {
    client.close();
  }
}

describe("consul client TLS", () => {
  it("verifies the server with ca_cert + server_name and presents the client certificate", async () => {
    const before = clientNames.length;
    const result = await leader({
      tls: tls({ ca_cert: join(dir, "ca.pem"), cert: join(dir, "client.pem"), key: join(dir, "client.key"), server_name: "consul.test" }),
    });
    expect(result.data).toBe("127.0.0.1:8300");
    expect(clientNames.slice(before)).toEqual(["cts-client"]);
  });

  it("uses https for an https:// address even with an empty tls block, verified against the system roots (CTS)", async () => {
    const error = await leader({ tls: tls({ enabled: false }) }, `https://127.0.0.1:${port}`).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Cannot query \/v1\/status\/leader: .*(self.signed|issuer|certificate)/i);
  });

  it("ignores the tls block's files, server name and verify when enabled = false, as CTS does", async () => {
    const before = clientNames.length;
    const disabled = { ca_cert: join(dir, "ca.pem"), cert: join(dir, "client.pem"), key: join(dir, "client.key"), server_name: "consul.test" };
    const error = await leader({ tls: tls({ ...disabled, enabled: false }) }, `https://127.0.0.1:${port}`).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Cannot query \/v1\/status\/leader: .*(self.signed|issuer|certificate)/i);
    const skipped = await leader({ tls: tls({ enabled: false, verify: false }) }, `https://127.0.0.1:${port}`).catch((e: unknown) => e);
    expect((skipped as Error).message).toMatch(/(self.signed|issuer|certificate)/i);
    expect(clientNames.slice(before)).toEqual([]);
    // The same files with the block enabled: verified, and the client certificate is presented.
    expect((await leader({ tls: tls(disabled) }, `https://127.0.0.1:${port}`)).data).toBe("127.0.0.1:8300");
    expect(clientNames.slice(before)).toEqual(["cts-client"]);
  });

  it("uses https for an http:// address when tls is enabled (TLS that was asked for is never dropped)", async () => {
    const result = await leader({ tls: tls({ ca_cert: join(dir, "ca.pem"), server_name: "consul.test" }) }, `http://127.0.0.1:${port}`);
    expect(result.data).toBe("127.0.0.1:8300");
  });

  it("skips verification with verify = false", async () => {
    const result = await leader({ tls: tls({ verify: false }) });
    expect(result.index).toBe(1);
  });

  it("refuses a server whose name does not match, naming the TLS problem", async () => {
    const error = await leader({ tls: tls({ ca_cert: join(dir, "ca.pem") }) }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Cannot query \/v1\/status\/leader: .*(altnames|Hostname|match)/i);
  });

  it("refuses an unknown CA", async () => {
    const error = await leader({ tls: tls({ server_name: "consul.test" }) }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Cannot query \/v1\/status\/leader: .*(self.signed|issuer|certificate)/i);
  });

  it("reports an unreadable CA file as a config error", async () => {
    const error = await testClient(`127.0.0.1:${port}`, { tls: tls({ ca_cert: join(dir, "missing.pem") }) })
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("CTS_ERR_CONFIG_INVALID");
    expect((error as Error).message).toMatch(/^Cannot read Consul TLS ca_cert ".*missing\.pem": /);
  });

  it("verifies the server with every PEM file of ca_path", async () => {
    const result = await leader({ tls: tls({ ca_path: dir, server_name: "consul.test" }) });
    expect(result.data).toBe("127.0.0.1:8300");
  });
});
