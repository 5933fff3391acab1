/**
 * The configuration the terraform-cloud driver uploads is driver-terraform's root module, rendered
 * by the one renderer driver-terraform provides through terraformRootModuleToken: in a real kernel
 * that loads both plugins, every golden variant of driver-terraform uploads variables.tf and
 * variables.module.tf byte for byte as driver-terraform writes them (CTS's descriptions and
 * "definition protocol v0" comments), and main.tf as driver-terraform's without the backend block
 * (state lives in the workspace) and with a local module shipped inside the upload as ./module.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { driverRegistryToken, type DriverFactory } from "../../../core/plugin-api/mod.ts";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";
import { createTestKernel, type TestKernel } from "../../../core/plugin-testkit/mod.ts";
import driverTerraform from "../../../plugins/driver-terraform/mod.ts";
import driverTerraformCloud from "../../../plugins/driver-terraform-cloud/mod.ts";
import vaultClient from "../../../plugins/vault-client/mod.ts";
import { taskInputSpecsOf } from "../../helpers/task-input-specs.ts";
import { until } from "../../../harness/until.ts";
import { captureLogger } from "../../../harness/driver-terraform/capture-logger.ts";
import { goldenCases } from "../driver-terraform/golden-cases.ts";
import { driverBlock, writeModule } from "../../../harness/driver-terraform-cloud/tfc-fixtures.ts";

const goldenDir = join(import.meta.dirname, "../driver-terraform/golden");
const signal = new AbortController().signal;
let server: TfcDevServer;
let booted: TestKernel;
let factory: DriverFactory;
let module: { dir: string; remove: () => void };

beforeAll(async () => {
  server = await startTfcDevServer({ faults: { queueDelayMs: 600_000 } });
  module = writeModule();
  booted = await createTestKernel({ plugins: [vaultClient, driverTerraform, driverTerraformCloud] });
  factory = booted.kernel.resolve(driverRegistryToken).get("terraform-cloud")!;
}, 60_000);
afterAll(async () => {
  await booted?.kernel.stop();
  await server?.stop();
  module?.remove();
});

/** The files of the workspace's newest configuration version, unpacked with tar. */
function uploadedFiles(workspaceId: string): Record<string, string> {
  const archive = server.state.configurationVersionsOf(workspaceId)[0]?.archive;
  expect(archive, "an uploaded configuration version").toBeTruthy();
  const dir = mkdtempSync(join(tmpdir(), "tfc-upload-"));
  try {
    writeFileSync(join(dir, "upload.tar.gz"), archive!);
    const names = execFileSync("tar", ["-tzf", join(dir, "upload.tar.gz")], { encoding: "utf8" }).trim().split("\n");
    execFileSync("tar", ["-xzf", join(dir, "upload.tar.gz"), "-C", dir]);
    return Object.fromEntries(names.map((name) => [name, readFileSync(join(dir, name), "utf8")]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** driver-terraform's golden main.tf as the terraform-cloud driver must write it. */
function expectedMainTf(golden: string, local: boolean): string {
  let text = golden.replace(/\n {2}backend "[^"]+" \{(?:\n {4}[^\n]*)*\n {2}\}/, "");
  // A version argument is not allowed on a local module; "services" is longer, so alignment holds.
  if (local) text = text.replace(/^( {2}source +)= "[^"]*"$/m, '$1= "./module"').replace(/^ {2}version +=.*\n/m, "");
  return text;
}

test("every golden variant uploads driver-terraform's files, without backend, the local module as ./module", async () => {
  const logger = captureLogger([], "driver.tfc");
  for (const [name, goldenCase] of Object.entries(goldenCases)) {
    const source = goldenCase.source;
    const local = source.task.module.startsWith("./");
    const task = { ...source.task, driver: "terraform-cloud", ...(local ? { module: module.dir } : {}) };
    const driver = await factory.create(task, {
      driver: driverBlock(server, { required_providers: source.options.required_providers }),
      providers: source.providers, consul: source.consul, workingDir: "", logger, inputs: taskInputSpecsOf(source.task),
    });
    await driver.init(signal);
    // The first run uploads the configuration (init only reads); the run itself is not the point
    // here: it stays queued (the server's queue delay) and the apply is called off once it is.
    await driver.render({ services: {} }, signal);
    // Read from the server's state, not its API: the test's reads must not spend the driver's rate limit.
    const runsOf = () => {
      const found = server.state.workspaceByName(server.state.organizationByName(server.organization)!.id, task.name);
      return found ? { ws: found, runs: server.state.runsOf(found.id).length } : { ws: undefined, runs: 0 };
    };
    const before = runsOf().runs;
    const callOff = new AbortController();
    const applying = driver.apply(callOff.signal).catch(() => undefined);
    const { ws } = await until("the run queued", () => {
      const now = runsOf();
      return now.runs > before ? now : undefined;
    }, 60_000, 50);
    callOff.abort();
    await applying;
    const files = uploadedFiles(ws!.id);
    const golden = (file: string) => readFileSync(join(goldenDir, name, file), "utf8");
    expect(files["variables.tf"], `${name}/variables.tf`).toBe(golden("variables.tf"));
    expect(files["main.tf"], `${name}/main.tf`).toBe(expectedMainTf(golden("main.tf"), local));
    const moduleVariables = Object.keys(source.task.variables).length > 0;
    expect(files["variables.module.tf"], `${name}/variables.module.tf`).toBe(moduleVariables ? golden("variables.module.tf") : undefined);
    expect(Object.keys(files).filter((file) => file.startsWith("module/")), name).toEqual(local ? ["module/main.tf"] : []);
  }
}, 60_000);
