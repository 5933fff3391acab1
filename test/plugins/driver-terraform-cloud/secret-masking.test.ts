/**
 * The HCP Terraform driver and the daemon's secret masker (beyond CTS): the token it resolves is a
 * secret from then on, and a run log it reads (here the failing apply's, whose provisioner prints
 * a known secret in red) reaches the error without the secret or the colour codes. Against the
 * embedded HCP Terraform server, which runs the real terraform.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { SecretList } from "../../../core/kernel/secret-list.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { terraformRootModule } from "../../../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../../../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { captureLogger } from "../../../harness/driver-terraform/capture-logger.ts";
import { driverBlock, inputsOf, task } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

const signal = new AbortController().signal;
const secret = "tfc-secret-5f1c9e";

describe("terraform-cloud driver and the secret masker", () => {
  let server: TfcDevServer;
  let module: string;

  beforeAll(async () => {
    server = await startTfcDevServer();
    module = mkdtempSync(join(tmpdir(), "tfc-leaky-module-"));
    writeFileSync(join(module, "main.tf"), `variable "services" {
  type = map(any)
}
variable "label" {
  type = string
}
resource "terraform_data" "leak" {
  input = keys(var.services)
  provisioner "local-exec" {
    command = "printf '\\\\033[31mkey=%s\\\\033[0m\\\\n' '\${var.label}' >&2; exit 1"
  }
}
`);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(module, { recursive: true, force: true });
  });

  test("learns the token, and masks secrets and strips colour in the run log it reports", async () => {
    const secrets = new SecretList();
    secrets.add(secret, "test");
    const tfc = createTerraformCloudDriverFactory({
      http: createHttpClientFactory(), fs: createFileSystem(), logger: captureLogger([], "driver.tfc"), env: {}, rootModule: terraformRootModule, secrets,
    });
    const driver = driverBlock(server);
    await tfc.verify!(driver, signal);
    expect(secrets.mask(`token ${server.token}`)).toBe("token <redacted>");
    const instance = await tfc.create(task("leaky", module, { variables: { label: JSON.stringify(secret) } }), {
      driver, providers: [], consul: {} as never, workingDir: "", logger: captureLogger([], "driver.tfc"), inputs: [],
    });
    await instance.init(signal);
    await instance.render(inputsOf("t-1"), signal);
    const error = String(await instance.apply(signal).catch((e: Error) => e.message));
    expect(error).toContain("key=<redacted>");
    expect(error).not.toContain(secret);
    expect(error).not.toContain("\u001b");
  }, 120_000);
});
