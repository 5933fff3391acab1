/**
 * A local module reaches the run in HCP Terraform as it is on disk: every byte of a binary file,
 * a script's executable bit (a `local-exec` that calls `${path.module}/hello.sh` works as with the
 * terraform driver), a symbolic link inside the module; and `.terraformignore` is honoured as HCP
 * Terraform's own CLI honours it. Against the embedded server, whose runs execute the real terraform.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { listTarGz } from "../../../core/runtime/tar-archive.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createHttpClientFactory } from "../../../core/runtime/http-client.ts";
import { terraformRootModule } from "../../../plugins/driver-terraform/mod.ts";
import { createTerraformCloudDriverFactory } from "../../../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { captureLogger } from "../../../harness/driver-terraform/capture-logger.ts";
import { driverBlock, inputsOf, task, tfcApi, workspace } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

const signal = new AbortController().signal;
let server: TfcDevServer;
const dir = mkdtempSync(join(tmpdir(), "tfc-upload-module-"));
const blob = randomBytes(256);

beforeAll(async () => {
  server = await startTfcDevServer();
  writeFileSync(join(dir, "main.tf"), `variable "services" {
  type = any
}
resource "terraform_data" "files" {
  input = {
    blob    = filesha256("\${path.module}/blob.bin")
    link    = file("\${path.module}/link.txt")
    ignored = fileexists("\${path.module}/notes.local")
    logs    = fileexists("\${path.module}/logs/run.log")
    kept    = fileexists("\${path.module}/logs.keep/run.log")
  }
  provisioner "local-exec" {
    command = "\${path.module}/hello.sh"
  }
}
`);
  writeFileSync(join(dir, "blob.bin"), blob);
  writeFileSync(join(dir, "hello.sh"), "#!/bin/sh\necho hello from the module\n");
  chmodSync(join(dir, "hello.sh"), 0o755);
  writeFileSync(join(dir, "target.txt"), "linked");
  symlinkSync("target.txt", join(dir, "link.txt"));
  writeFileSync(join(dir, "notes.local"), "not for the upload");
  mkdirSync(join(dir, "logs"));
  writeFileSync(join(dir, "logs", "run.log"), "not for the upload");
  mkdirSync(join(dir, "logs.keep"));
  writeFileSync(join(dir, "logs.keep", "run.log"), "kept");
  mkdirSync(join(dir, ".git"));
  writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, ".terraformignore"), "# local notes and logs stay here\n*.local\n/logs/\n");
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("the upload keeps bytes, modes and links, and leaves out what .terraformignore names", async () => {
  const logger = captureLogger([], "driver.tfc");
  const factory = createTerraformCloudDriverFactory({ http: createHttpClientFactory(), fs: createFileSystem(), logger, env: {}, rootModule: terraformRootModule });
  const driver = await factory.create(task("uploads", dir), { driver: driverBlock(server), providers: [], consul: {} as never, workingDir: "", logger, inputs: [] });
  await driver.init(signal);
  await driver.render(inputsOf("u-1"), signal);
  // The local-exec runs ${path.module}/hello.sh: with its executable bit lost, the run errors (exit 126).
  const applied = await driver.apply(signal);
  expect(applied).toMatchObject({ url: expect.stringContaining("/workspaces/uploads/runs/run-") });

  const ws = await workspace(server, "uploads");
  const current = await tfcApi(server, "GET", `/workspaces/${ws.id}/current-state-version`);
  const state = await (await fetch(current.body.data.attributes["hosted-state-download-url"])).json() as any;
  const output = state.resources.find((r: any) => r.name === "files").instances[0].attributes.output.value;
  expect(output).toEqual({
    blob: createHash("sha256").update(blob).digest("hex"), link: "linked", ignored: false, logs: false, kept: true,
  });

  // What was uploaded: the module under module/, as go-slug packs it (.git never; links as links).
  const cv = ws.relationships["current-configuration-version"].data.id;
  const archive = new Uint8Array(await (await fetch(`${server.url}/api/v2/configuration-versions/${cv}/download`, {
    headers: { authorization: `Bearer ${server.token}` },
  })).arrayBuffer());
  const entries = (await listTarGz(archive)).map((path) => path.replace(/\/$/, "")).sort();
  expect(entries.filter((path) => path.startsWith("module"))).toEqual([
    "module/.terraformignore", "module/blob.bin", "module/hello.sh", "module/link.txt", "module/logs.keep",
    "module/logs.keep/run.log", "module/main.tf", "module/target.txt",
  ]);
}, 120_000);
