/**
 * @module Port of the "with_tf_vars_files" case of CTS's e2e TestE2E_CreateTaskCommand
 * (e2e/command_test.go, module e2e/test_modules/with_tfvars_file) against the real daemon (node
 * dist/main.js), the real terraform and the embedded Consul: `task create` of a task with two
 * variable_files writes their variables into the task's variables.auto.tfvars, in the text CTS
 * writes, the module gets them, and the task then runs on its condition.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { type CtsDaemon, readFile, registerService, startCtsDaemon } from "./kv-schedule-support.ts";

const TASK = "e2e_task_create_with_tf_vars_files";
/** The two files of CTS's case, byte for byte. */
const OBJECT_VARS = "filename = \"e2e.txt\"";
const FILENAME_VARS = `
sample = {
  tags = ["engineer", "cts"]
  user_meta = {
    age             = "32"
    day_of_the_week = "Tuesday"
    name            = "michael"
  }
}`;

describe("CTS e2e command_test.go: task create with variable_files", () => {
  let consul: TestConsulDevServer;
  let cts: CtsDaemon;

  beforeAll(async () => {
    consul = await startConsulDevServer();
    // CTS's newTestConsulServer services, and its dbTask.
    await registerService(consul, { id: "api", name: "api", address: "1.2.3.4", port: 8080 });
    await registerService(consul, { id: "web", name: "web", address: "5.6.7.8", port: 8000 });
    await registerService(consul, { id: "db", name: "db", address: "10.10.10.10", port: 8000 });
    cts = await startCtsDaemon(consul, "cts-var-files", `task {
  name        = "e2e_task_api_db"
  description = "basic read-write e2e task for api & db"
  module      = "./test_modules/local_instances_file"
  condition "services" {
    names = ["api", "db"]
  }
}
`);
  }, 120_000);

  afterAll(async () => {
    await cts?.stop();
    await consul?.stop();
  });

  it("writes the files' variables to variables.auto.tfvars, passes them to the module, and runs on change", async () => {
    const objectFile = join(cts.dir, "object.tfvars");
    const filenameFile = join(cts.dir, "filename.tfvars");
    writeFileSync(objectFile, OBJECT_VARS);
    writeFileSync(filenameFile, FILENAME_VARS);
    const created = await cts.createTask(`
task {
  name           = "${TASK}"
  description    = "Creates a new task"
  module         = "./test_modules/with_tfvars_file"
  condition "services" {
    names = ["web"]
  }
  enabled        = true
  variable_files = ["${filenameFile}","${objectFile}"]
}`);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const output = created.stdout.replace(/\r?\n/g, " ");
    expect(output).toContain(`Do you want to perform these actions for '${TASK}'?`);
    expect(output).toContain(`Task '${TASK}' created`);

    // CTS: variables.auto.tfvars holds each file's text.
    const autoVars = readFile(cts.taskPath(TASK, "variables.auto.tfvars"));
    expect(autoVars).toContain(OBJECT_VARS);
    expect(autoVars).toContain(FILENAME_VARS);
    // with_tfvars_file writes var.filename with the tags and user_meta of var.sample.
    expect(readFile(cts.taskPath(TASK, "e2e.txt"))).toBe("engineer,cts,age=32,day_of_the_week=Tuesday,name=michael");
    expect(readFile(cts.taskPath(TASK, "test.txt"))).toBeUndefined();

    expect(await cts.statusCode(TASK)).toBe(200);
    const before = (await cts.events(TASK)).length;
    const since = Date.now();
    await registerService(consul, { id: "web-1", name: "web" });
    const event = await cts.waitForEvent(TASK, since);
    expect(event.success, cts.output().slice(-4000)).toBe(true);
    expect(await cts.events(TASK)).toHaveLength(before + 1);
  }, 90_000);
});
