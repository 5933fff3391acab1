/**
 * The driver's `tls` block applies to every request (API calls, the configuration upload, plan log
 * reads): against the embedded HCP Terraform server over HTTPS with a certificate from a throwaway
 * CA. CTS did not use its TLS settings for every request (CTS GH-795).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { terraformRootModule } from "../../../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../../../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { captureLogger } from "../../../harness/driver-terraform/capture-logger.ts";
import { makeTestCerts, type TestCerts } from "../http-api/helpers/certs.ts";
import { driverBlock, inputsOf, stateIds, task, workspace, writeModule } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

const signal = new AbortController().signal;
let certs: TestCerts;
let server: TfcDevServer;
let module: ReturnType<typeof writeModule>;

beforeAll(async () => {
  certs = makeTestCerts();
  server = await startTfcDevServer({ tls: { cert: readFileSync(certs.serverCert, "utf8"), key: readFileSync(certs.serverKey, "utf8") } });
  module = writeModule();
});
afterAll(async () => {
  await server?.stop();
  certs?.cleanup();
  module?.remove();
});

function factory() {
  return createTerraformCloudDriverFactory({ http: createHttpClientFactory(), fs: createFileSystem(), logger: captureLogger([], "driver.tfc"), env: {}, rootModule: terraformRootModule });
}

describe("terraform-cloud driver over HTTPS", () => {
  test("without the CA the server's certificate is refused, with a clear error", async () => {
    expect(server.url).toMatch(/^https:/);
    const error = await factory().verify!(driverBlock(server), signal).catch((e: Error) => e);
    expect(String(error)).toMatch(/Cannot use organization "cts-dev" at https:\/\/127\.0\.0\.1:\d+: .*certificate/i);
  });

  test("an unknown CA is said in Go's words with what to set, not in OpenSSL's", async () => {
    const error = await factory().verify!(driverBlock(server), signal).catch((e: Error) => e);
    expect(String(error)).toContain("x509: certificate signed by unknown authority (give the CA with tls { ca_cert } or tls { ca_path })");
  });

  test("with tls.ca_cert every request (API, upload, plan log) trusts it: apply and inspect work", async () => {
    const driver = driverBlock(server, { tls: { enabled: true, ca_cert: certs.caCert } });
    const tfc = factory();
    await tfc.verify!(driver, signal);
    const logger = captureLogger([], "driver.tfc");
    const instance = await tfc.create(task("tls-task", module.dir), {
      driver, providers: [], consul: {} as never, workingDir: "", logger, inputs: [],
    });
    await instance.init(signal);
    await instance.render(inputsOf("t-1"), signal);
    await instance.apply(signal);
    const ws = await workspaceOverTls("tls-task");
    expect(await stateIdsOverTls(ws.id)).toEqual(["t-1"]);
    await instance.render(inputsOf("t-1", "t-2"), signal);
    expect((await instance.plan(signal)).plan).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
  }, 120_000);
});

/** The test's own fetch must trust the CA too. */
async function withCa<T>(run: () => Promise<T>): Promise<T> {
  const saved = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  try {
    return await run();
  } finally {
    if (saved === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = saved;
  }
}
const workspaceOverTls = (name: string) => withCa(() => workspace(server, name));
const stateIdsOverTls = (id: string) => withCa(() => stateIds(server, id));
