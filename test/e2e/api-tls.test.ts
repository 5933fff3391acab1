/**
 * End to end over mTLS: the real daemon process with `tls { verify_incoming = true }` and
 * openssl-made certificates; the real CLI with a client certificate gets through, without one it
 * is refused (exit 11); curl shows the same.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { makeTestCerts, type TestCerts } from "../plugins/http-api/helpers/certs.ts";
import { startApiDaemon, type ApiDaemon } from "../plugins/http-api/helpers/api-daemon.ts";

describe("API over mTLS end to end (Deno daemon)", () => {
  let consul: TestConsulDevServer;
  let certs: TestCerts;
  let daemon: ApiDaemon;
  beforeAll(async () => {
    consul = await startConsulDevServer();
    certs = makeTestCerts();
    daemon = await startApiDaemon({
      consulAddress: consul.address,
      scheme: "https",
      extraHcl: [
        "tls {",
        "  enabled = true",
        `  cert = "${certs.serverCert}"`,
        `  key = "${certs.serverKey}"`,
        "  verify_incoming = true",
        `  ca_cert = "${certs.caCert}"`,
        "}",
      ].join("\n"),
      clientEnv: { CTS_CACERT: certs.caCert },
    });
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
    await consul?.stop();
    certs?.cleanup();
  });

  it("lets the CLI in with a client certificate and refuses it without one", async () => {
    const withCert = await daemon.cli(["status"], { env: { CTS_CLIENT_CERT: certs.clientCert, CTS_CLIENT_KEY: certs.clientKey } });
    expect(withCert.code, withCert.stderr).toBe(0);
    expect(withCert.stdout).toContain("No tasks");

    const flags = await daemon.cli([
      "task", "disable", `-client-cert=${certs.clientCert}`, `-client-key=${certs.clientKey}`, "nope",
    ]);
    expect(flags.code).toBe(11);
    // CTS's layout: the step's headline on stderr, the daemon's message on stdout.
    expect(flags.stderr).toContain("==> Error: unable to disable 'nope'");
    expect(flags.stdout).toContain("does not exist");

    const without = await daemon.cli(["status"]);
    expect(without.code).toBe(11);
    expect(without.stderr).toContain("Cannot reach the daemon");
    const stranger = await daemon.cli(["status"], { env: { CTS_CLIENT_CERT: certs.strangerCert, CTS_CLIENT_KEY: certs.strangerKey } });
    expect(stranger.code).toBe(11);
  }, 60_000);

  it("answers curl with a client certificate, not without", async () => {
    const run = promisify(execFile);
    const ok = await run("/usr/bin/curl", [
      "-s", "--cacert", certs.caCert, "--cert", certs.clientCert, "--key", certs.clientKey, `${daemon.url}/v1/health`,
    ]);
    expect(ok.stdout).toBe("{}");
    const refused = await run("/usr/bin/curl", ["-s", "--cacert", certs.caCert, `${daemon.url}/v1/health`]).then(
      () => "answered",
      (error: { code?: number }) => `curl exit ${error.code}`,
    );
    expect(refused).toMatch(/^curl exit \d+$/);
  });
});
