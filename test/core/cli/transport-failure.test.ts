/**
 * The CLI's message when it gets no HTTP answer carries Go's phrase after Node's/Deno's, since
 * CTS's e2e tests and users' scripts match Go's (e2e/command_tls_test.go): the symptoms each
 * runtime shows, and a real TLS server asked whether it speaks TLS.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transportFailureText } from "../../../core/cli/transport-failure.ts";
import { freePort } from "../../../harness/free-port.ts";
import { makeTestCerts, type TestCerts } from "../../plugins/http-api/helpers/certs.ts";

const fail = (message: string, more: Record<string, unknown> = {}) => Object.assign(new Error(message), more);

describe("transportFailureText", () => {
  let certs: TestCerts;
  let server: Server;
  let tlsPort: number;
  beforeAll(async () => {
    certs = makeTestCerts();
    server = createServer({ cert: readFileSync(certs.serverCert), key: readFileSync(certs.serverKey) }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    tlsPort = (server.address() as { port: number }).port;
  });
  afterAll(() => {
    server?.close();
    certs?.cleanup();
  });

  it("http:// to a TLS port: Go's server sentence, whatever the runtime saw", async () => {
    for (const symptom of [fail("socket hang up", { code: "ECONNRESET" }), fail("Parse Error: Expected HTTP/, RTSP/ or ICE/")]) {
      const text = await transportFailureText(`http://127.0.0.1:${tlsPort}`, symptom, { clientCert: false });
      expect(text).toContain("Client sent an HTTP request to an HTTPS server");
      expect(text).toContain(symptom.message);
    }
  });

  it("http:// to a closed port only hints at TLS", async () => {
    const port = await freePort();
    const text = await transportFailureText(`http://127.0.0.1:${port}`, fail(`connect ECONNREFUSED 127.0.0.1:${port}`, { code: "ECONNREFUSED" }), { clientCert: false });
    expect(text).not.toContain("sent an HTTP request");
    expect(text).toContain("if the daemon serves TLS, use an https:// address");
  });

  it("https:// to a plain HTTP port, an unknown CA, a refused client", async () => {
    const at = "https://127.0.0.1:1";
    expect(await transportFailureText(at, fail("write EPROTO ...:wrong version number:...\n", { code: "EPROTO" }), { clientCert: false }))
      .toContain("http: server gave HTTP response to HTTPS client");
    expect(await transportFailureText(at, fail("received corrupt message of type InvalidContentType"), { clientCert: false }))
      .toContain("HTTP response to HTTPS client");
    for (const code of ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "SELF_SIGNED_CERT_IN_CHAIN", "DEPTH_ZERO_SELF_SIGNED_CERT"]) {
      expect(await transportFailureText(at, fail("some text", { code }), { clientCert: false }), code).toContain("x509: certificate signed by unknown authority");
    }
    const hangUp = fail("socket hang up", { code: "ECONNRESET", tlsHandshakeDone: true });
    expect(await transportFailureText(at, hangUp, { clientCert: false })).toContain("tls: certificate required");
    // With a certificate given, a hang-up is not blamed on a missing one.
    expect(await transportFailureText(at, hangUp, { clientCert: true })).not.toContain("certificate required");
  });
});
