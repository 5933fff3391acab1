/**
 * Port of CTS's e2e/command_tls_test.go: the task commands against a daemon serving TLS, and one
 * verifying clients (mTLS, `ca_path` holding two CAs), through CTS's flags and CTS_* variables,
 * with CTS's error phrases ("sent an HTTP request to an HTTPS server", "signed by unknown
 * authority", "certificate required"). The real daemon processes, terraform and the embedded
 * Consul; openssl-made certificates. CTS runs every case for all four commands; the cases that
 * only prove the connection (flags vs. variables) run the two commands that need no plan.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { makeTestCerts, type TestCerts } from "../../plugins/http-api/helpers/certs.ts";
import { dbTask, dbTaskName, makeTempDir, runSubcommand, startCtsConsul, startCtsDaemon, type CtsDaemon } from "./cts-e2e-harness.ts";

/** CTS's testTaskFileContent. */
const testTaskFile = `
task {
  name           = "test-task"
  description    = "Creates a new task"
  module         = "./test_modules/local_instances_file"
  condition "services" {
    names = ["api"]
  }
  enabled = true
}`;

/** CTS's getTestCommands: what each command prints once connected. */
function testCommands(taskFile: string) {
  return [
    { name: "task disable", args: ["task", "disable"], arg: dbTaskName, expect: "disable complete!", input: "" },
    { name: "task enable", args: ["task", "enable", "-auto-approve"], arg: dbTaskName, expect: "enable complete!", input: "" },
    // The task does not exist: a 404 proves the connection.
    { name: "task delete", args: ["task", "delete", "-auto-approve"], arg: "task-no-exist", expect: "404 Not Found:", input: "" },
    { name: "task create", args: ["task", "create"], arg: `--task-file=${taskFile}`, expect: "Creating the task will perform the actions described above.", input: "no\n" },
  ];
}

const oneLine = (text: string) => text.replace(/\r?\n/g, " ");

describe("CTS e2e command_tls_test.go", () => {
  let consul: TestConsulDevServer;
  let certs: TestCerts;
  let tls: CtsDaemon;
  let mtls: CtsDaemon;
  let taskFile: string;
  let serverCaPath: string;
  let clientCaPath: string;
  let files: string;

  beforeAll(async () => {
    certs = makeTestCerts();
    files = makeTempDir("tls-files");
    taskFile = path.join(files, "task.hcl");
    writeFileSync(taskFile, testTaskFile);
    // The daemon's ca_path: its clients' CA and a second one (CTS's alternate CA).
    serverCaPath = path.join(files, "certs");
    mkdirSync(serverCaPath);
    copyFileSync(certs.caCert, path.join(serverCaPath, "ca.pem"));
    copyFileSync(path.join(certs.dir, "other-ca.pem"), path.join(serverCaPath, "other-ca.pem"));
    // CTS's copyClientCerts: a CA path without the daemon's CA.
    clientCaPath = path.join(files, "clientCert");
    mkdirSync(clientCaPath);
    copyFileSync(certs.strangerCert, path.join(clientCaPath, "stranger.pem"));
    copyFileSync(path.join(certs.dir, "other-ca.pem"), path.join(clientCaPath, "other-ca.pem"));
    consul = await startCtsConsul();
    const tlsBlock = (more: string) => `
tls {
  enabled = true
  cert = "${certs.serverCert}"
  key = "${certs.serverKey}"
  ${more}
}
`;
    [tls, mtls] = await Promise.all([
      startCtsDaemon(consul, dbTask + tlsBlock(""), { scheme: "https" }),
      startCtsDaemon(consul, dbTask + tlsBlock(`ca_path = "${serverCaPath}"\n  verify_incoming = true`), { scheme: "https" }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await tls?.stop();
    await mtls?.stop();
    await consul?.stop();
    certs?.cleanup();
    rmSync(files, { recursive: true, force: true });
  });

  /**
   * Runs the four commands (or, with `all` false, `task disable` alone: the failure is in the client
   * all four share) with `flags` before the argument; each must fail with `expected`.
   */
  async function expectFailures(label: string, all: boolean, flags: string[], expected: string, env: Record<string, string> = {}) {
    const commands: [string, string[]][] = [
      ["task disable", ["task", "disable"]],
      ["task enable", ["task", "enable", "-auto-approve"]],
      ["task delete", ["task", "delete", "-auto-approve"]],
      ["task create", ["task", "create", `--task-file=${taskFile}`]],
    ];
    const results = await Promise.all(commands.slice(0, all ? 4 : 1).map(async ([name, args]) => {
      const arg = name === "task create" ? [] : [dbTaskName];
      return { name, result: await runSubcommand([...args, ...flags, ...arg], { env }) };
    }));
    for (const { name, result } of results) {
      expect(oneLine(result.output), `${label} ${name}`).toContain(expected);
      expect(result.code, `${label} ${name}`).not.toBe(0);
    }
  }

  /** Runs CTS's test commands (all four, or only those needing no plan) with `flags` and `env`. */
  async function expectConnected(label: string, flags: string[], env: Record<string, string>, all: boolean) {
    for (const command of testCommands(taskFile)) {
      if (!all && (command.name === "task enable" || command.name === "task create")) continue;
      const result = await runSubcommand([...command.args, ...flags, command.arg], { input: command.input, env });
      expect(result.output, `${label} ${command.name}`).toContain(command.expect);
      if (command.name !== "task delete") expect(result.code, `${label} ${command.name}: ${result.output}`).toBe(0);
    }
  }

  // TestE2E_CommandTLSErrors
  it("TestE2E_CommandTLSErrors", async () => {
    const http = tls.address.replace("https", "http");
    await Promise.all([
      expectFailures("wrong scheme", true, [`-http-addr=${http}`, `-ca-cert=${certs.caCert}`, "-ssl-verify=true"],
        "sent an HTTP request to an HTTPS server"),
      expectFailures("wrong scheme flag over the right one in CTS_ADDRESS", false, [`-http-addr=${http}`, `-ca-cert=${certs.caCert}`, "-ssl-verify=true"],
        "sent an HTTP request to an HTTPS server", { CTS_ADDRESS: tls.address }),
      expectFailures("invalid cert", true, [`-http-addr=${tls.address}`, `-ca-cert=${certs.strangerCert}`, "-ssl-verify=true"],
        "signed by unknown authority"),
      expectFailures("ca path without the server's CA", false, [`-http-addr=${tls.address}`, `-ca-path=${clientCaPath}`, "-ssl-verify=true"],
        "signed by unknown authority"),
      expectFailures("ssl verify flag over CTS_SSL_VERIFY=false", false, [`-http-addr=${tls.address}`, "-ssl-verify=true"],
        "signed by unknown authority", { CTS_SSL_VERIFY: "false" }),
    ]);
  }, 60_000);

  // TestE2E_CommandTLS and TestE2E_CommandTLS_CAPath
  it("TestE2E_CommandTLS and TestE2E_CommandTLS_CAPath", async () => {
    await expectConnected("happy path", [`-http-addr=${tls.address}`, `-ca-cert=${certs.caCert}`, "-ssl-verify=true"], {}, true);
    await expectConnected("environment variables", [], { CTS_ADDRESS: tls.address, CTS_CACERT: certs.caCert, CTS_SSL_VERIFY: "true" }, false);
    await expectConnected("flags override environment variables", [`-http-addr=${tls.address}`, `-ca-cert=${certs.caCert}`, "-ssl-verify=true"],
      { CTS_ADDRESS: "bogus_address", CTS_CACERT: "bogus_cert" }, false);
    await expectConnected("ssl verify flag false", [`-http-addr=${tls.address}`, "-ssl-verify=false"], {}, false);
    await expectConnected("ssl verify environment false", [], { CTS_ADDRESS: tls.address, CTS_SSL_VERIFY: "false" }, false);
    await expectConnected("ca path flag", [`-http-addr=${tls.address}`, `-ca-path=${serverCaPath}`, "-ssl-verify=true"], {}, false);
    await expectConnected("ca path environment variables", [], { CTS_ADDRESS: tls.address, CTS_CAPATH: serverCaPath, CTS_SSL_VERIFY: "true" }, false);
    await expectConnected("ca path flags override environment variables", [`-http-addr=${tls.address}`, `-ca-path=${serverCaPath}`, "-ssl-verify=true"],
      { CTS_ADDRESS: "bogus_address", CTS_CAPATH: "/path/bogus_cert" }, false);
    // CTS's "ca path overrides ca cert": the CA file wins over a bogus CA path.
    await expectConnected("ca cert wins over ca path", [`-http-addr=${tls.address}`, `-ca-cert=${certs.caCert}`, "-ca-path=/path/bogus_cert", "-ssl-verify=true"], {}, false);
  }, 90_000);

  // TestE2E_CommandMTLSErrors
  it("TestE2E_CommandMTLSErrors", async () => {
    const client = [`-client-cert=${certs.clientCert}`, `-client-key=${certs.clientKey}`];
    await Promise.all([
      expectFailures("invalid ca cert", false, [`-http-addr=${mtls.address}`, `-ca-cert=${certs.strangerCert}`, ...client, "-ssl-verify=true"],
        "signed by unknown authority"),
      expectFailures("client ca path without the server's CA", false, [`-http-addr=${mtls.address}`, `-ca-path=${clientCaPath}`, ...client, "-ssl-verify=true"],
        "signed by unknown authority"),
      expectFailures("no client cert", true, [`-http-addr=${mtls.address}`, `-ca-cert=${certs.caCert}`, "-ssl-verify=true"],
        "certificate required"),
      expectFailures("ssl verify disabled, no client cert", false, [`-http-addr=${mtls.address}`, "-ssl-verify=false"],
        "certificate required"),
    ]);
  }, 60_000);

  // TestE2E_CommandMTLS and TestE2E_CommandMTLS_CAPath
  it("TestE2E_CommandMTLS and TestE2E_CommandMTLS_CAPath", async () => {
    const client = [`-client-cert=${certs.clientCert}`, `-client-key=${certs.clientKey}`];
    const clientEnv = { CTS_CLIENT_CERT: certs.clientCert, CTS_CLIENT_KEY: certs.clientKey };
    const bogus = { CTS_ADDRESS: "bogus_address", CTS_CACERT: "bogus_ca_cert", CTS_SSL_VERIFY: "true", CTS_CLIENT_CERT: "bogus_client_cert", CTS_CLIENT_KEY: "bogus_client_key" };
    await expectConnected("happy path", [`-http-addr=${mtls.address}`, `-ca-cert=${certs.caCert}`, ...client, "-ssl-verify=true"], {}, true);
    await expectConnected("environment variables", [], { CTS_ADDRESS: mtls.address, CTS_CACERT: certs.caCert, CTS_SSL_VERIFY: "true", ...clientEnv }, false);
    await expectConnected("flags override environment variables", [`-http-addr=${mtls.address}`, `-ca-cert=${certs.caCert}`, ...client, "-ssl-verify=true"], bogus, false);
    await expectConnected("ssl verify disabled", [`-http-addr=${mtls.address}`, ...client, "-ssl-verify=false"], {}, false);
    await expectConnected("ca path flag", [`-http-addr=${mtls.address}`, `-ca-path=${serverCaPath}`, ...client], {}, false);
    // A client certificate of the second CA of the daemon's ca_path.
    await expectConnected("using alternate cert", [`-http-addr=${mtls.address}`, `-ca-cert=${certs.caCert}`,
      `-client-cert=${certs.strangerCert}`, `-client-key=${certs.strangerKey}`, "-ssl-verify=true"], {}, false);
    await expectConnected("ca path environment variables", [], { CTS_ADDRESS: mtls.address, CTS_CAPATH: serverCaPath, CTS_SSL_VERIFY: "true", ...clientEnv }, false);
    await expectConnected("ca path overrides environment variables", [`-http-addr=${mtls.address}`, `-ca-path=${serverCaPath}`, ...client, "-ssl-verify=true"],
      { CTS_ADDRESS: "bogus_address", CTS_CAPATH: "path/bogus_ca_path", CTS_SSL_VERIFY: "true", CTS_CLIENT_CERT: "bogus_client_cert", CTS_CLIENT_KEY: "bogus_client_key" }, false);
  }, 90_000);
});
