/**
 * mTLS proven: the real daemon with `tls { verify_incoming = true }`, on Node and on Deno, judges
 * every kind of client certificate on every route (`/v1/*`, `/ui/`, `/v1/events`, `/metrics`) as Go's
 * crypto/tls does (CTS's own server: a Go reference server built from
 * test/fixtures/go-mtls-reference gives each verdict). Two CA bundles: one client CA, and two client
 * CAs of one subject without key identifiers (OpenSSL alone refuses the second one's certificates;
 * Node re-checks exactly that case, and only where the bundle has such CAs). With one CA, Node refuses
 * on OpenSSL's verdict alone, and OpenSSL refuses a client without a certificate in the handshake.
 */
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { request } from "node:https";
import { connect } from "node:tls";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { CLIENT_CASES, type ClientCase, makeMtlsCerts, type MtlsCerts } from "../helpers/mtls-certs.ts";
import { startDaemon, waitForDaemon } from "../helpers/daemon-process.ts";
import { repoRoot, type Runtime } from "../../harness/run-cli.ts";
import { until } from "../../harness/until.ts";

const ROUTES = ["/v1/status", "/ui/", "/v1/events", "/metrics"] as const;
type Bundle = "one CA" | "two same-subject CAs";

/** What Go's crypto/tls decides (asserted against the Go server too, so the table cannot drift). */
function goAccepts(kind: ClientCase, bundle: Bundle): boolean {
  return kind === "valid" || (kind === "second same-subject CA" && bundle === "two same-subject CAs");
}

interface Verdict {
  readonly accepted: boolean;
  /** The client's error when refused (its code, or message). */
  readonly error?: string;
}

function verdict(port: number, path: string, certs: MtlsCerts, kind: ClientCase): Promise<Verdict> {
  const identity = certs.clients[kind];
  return new Promise((resolve) => {
    const req = request({
      host: "127.0.0.1", port, path, agent: false, ca: certs.serverCa, ...(identity ? { cert: identity.cert, key: identity.key } : {}),
    }, (response) => {
      response.destroy();
      resolve({ accepted: response.statusCode === 200 });
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ accepted: false, error: error.code ?? error.message }));
    req.end();
  });
}

/**
 * How the server ends a TLS connection on which the client sends nothing after its handshake: its
 * error code (a TLS alert when OpenSSL refused it), or "closed" without one. With nothing sent, the
 * alert reaches the client (with a request in flight, the close may reset the connection first).
 */
function refusal(port: number, certs: MtlsCerts, kind: ClientCase): Promise<string> {
  const identity = certs.clients[kind];
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, ca: certs.serverCa, ...(identity ? { cert: identity.cert, key: identity.key } : {}) });
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on("close", () => resolve("closed"));
    socket.resume();
  });
}

interface Server {
  readonly port: number;
  stop(): Promise<void>;
}

async function startGoReference(binary: string, certs: MtlsCerts, bundlePath: string): Promise<Server> {
  const child = spawn(binary, [certs.serverCertPath, certs.serverKeyPath, bundlePath], { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  const port = await until("the Go reference server's port", () => (/^\d+\n/.test(out) ? Number(out.trim()) : undefined), 20_000);
  return {
    port,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function startMtlsDaemon(runtime: Runtime, certs: MtlsCerts, bundlePath: string, consul: TestConsulDevServer): Promise<Server> {
  const port = await freePort();
  const file = join(certs.dir, `cts-${runtime}-${port}.hcl`);
  writeFileSync(file, `port = ${port}
working_dir = ${JSON.stringify(join(certs.dir, `sync-${port}`))}
tls {
  cert            = ${JSON.stringify(certs.serverCertPath)}
  key             = ${JSON.stringify(certs.serverKeyPath)}
  ca_cert         = ${JSON.stringify(bundlePath)}
  verify_incoming = true
}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
`);
  const daemon = startDaemon(runtime, file, { cwd: certs.dir });
  await waitForDaemon(daemon, async () => (await verdict(port, "/v1/health", certs, "valid")).accepted, 60_000);
  return { port, stop: () => daemon.stop() };
}

describe("mTLS client certificates judged as Go's crypto/tls judges them", () => {
  let certs: MtlsCerts;
  let consul: TestConsulDevServer;
  const go: Partial<Record<Bundle, Server>> = {};
  const daemons: { label: string; runtime: Runtime; bundle: Bundle; server: Server }[] = [];

  beforeAll(async () => {
    certs = makeMtlsCerts();
    consul = await startConsulDevServer();
    const binary = join(certs.dir, "go-mtls-reference");
    execFileSync("go", ["build", "-o", binary, join(repoRoot, "test", "fixtures", "go-mtls-reference", "main.go")], {
      env: { ...process.env, GO111MODULE: "off", GOFLAGS: "" },
    });
    const bundles: Record<Bundle, string> = { "one CA": certs.oneCaPath, "two same-subject CAs": certs.twinCasPath };
    go["one CA"] = await startGoReference(binary, certs, bundles["one CA"]);
    go["two same-subject CAs"] = await startGoReference(binary, certs, bundles["two same-subject CAs"]);
    const started = await Promise.all(([
      ["node", "one CA"], ["node", "two same-subject CAs"], ["deno", "two same-subject CAs"],
    ] as const).map(async ([runtime, bundle]) =>
      ({ label: `${runtime}, ${bundle}`, runtime, bundle, server: await startMtlsDaemon(runtime, certs, bundles[bundle], consul) })));
    daemons.push(...started);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...daemons.map((daemon) => daemon.server.stop()), ...Object.values(go).map((server) => server!.stop())]);
    await consul?.stop();
    certs?.cleanup();
  });

  it("Go's verdicts are the expected table (the reference itself)", async () => {
    for (const bundle of ["one CA", "two same-subject CAs"] as const) {
      for (const kind of CLIENT_CASES) {
        expect((await verdict(go[bundle]!.port, "/", certs, kind)).accepted, `Go, ${bundle}: ${kind}`).toBe(goAccepts(kind, bundle));
      }
    }
  });

  it("every route of the daemon, on Node and on Deno, accepts and refuses exactly as Go", async () => {
    const cells = daemons.flatMap((daemon) => ROUTES.flatMap((route) => CLIENT_CASES.map((kind) => ({ daemon, route, kind }))));
    const verdicts = await Promise.all(cells.map(async (cell) => ({ ...cell, verdict: await verdict(cell.daemon.server.port, cell.route, certs, cell.kind) })));
    for (const { daemon, route, kind, verdict: got } of verdicts) {
      expect(got.accepted, `${daemon.label}, ${route}: ${kind} (${got.error ?? "accepted"})`).toBe(goAccepts(kind, daemon.bundle));
    }
  }, 60_000);

  it("with one CA, Node refuses on OpenSSL's verdict alone: no certificate is refused in the handshake", async () => {
    // Node judges a presented certificate by OpenSSL's verify result after the handshake either way;
    // letting it refuse (rather than a check of ours) also makes OpenSSL require a certificate, so a
    // client without one gets its alert instead of a completed handshake and a cut connection.
    const node = daemons.find((daemon) => daemon.runtime === "node" && daemon.bundle === "one CA")!;
    expect(await refusal(node.server.port, certs, "no certificate")).toBe("ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED");
  });
});
