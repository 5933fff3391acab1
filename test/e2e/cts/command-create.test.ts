/**
 * Port of the `task create` scenarios of CTS's e2e/command_test.go (TestE2E_CreateTaskCommand,
 * TestE2E_CreateTaskCommand_NoTaskFileProvided, TestE2E_CreateDeleteCreateTrigger,
 * TestE2E_RecreateBadTask) against one real daemon with the real terraform and the embedded Consul.
 * CTS runs each case on a fresh daemon with the name "new-task"; here each case has its own name.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import {
  dbTask, dbTaskName, eventCount, makeTempDir, registerService, runSubcommand, startCtsConsul, startCtsDaemon,
  taskStatus, waitForEvents, type CtsDaemon,
} from "./cts-e2e-harness.ts";

/** CTS's create-test task: local_instances_file on the web service. */
const webTaskFile = (name: string, module = "./test_modules/local_instances_file", extra = "") => `
task {
  name           = "${name}"
  description    = "Creates a new task"
  module         = "${module}"
  condition "services" {
    names = ["web"]
  }
  enabled = true
  ${extra}
}`;

/** CTS removes newlines before matching create's output (word wrapping). */
const oneLine = (text: string) => text.replace(/\r?\n/g, " ");

describe("CTS e2e command_test.go: task create", () => {
  let consul: TestConsulDevServer;
  let cts: CtsDaemon;
  let files: string;
  const taskFile = (name: string, content: string) => {
    const file = path.join(files, name);
    writeFileSync(file, content);
    return file;
  };
  const create = (file: string, input: string, ...flags: string[]) =>
    runSubcommand(["task", "create", `-http-addr=${cts.address}`, ...flags, `--task-file=${file}`], { input });

  beforeAll(async () => {
    files = makeTempDir("task-files");
    consul = await startCtsConsul();
    cts = await startCtsDaemon(consul, dbTask);
  }, 120_000);
  afterAll(async () => {
    await cts?.stop();
    await consul?.stop();
    rmSync(files, { recursive: true, force: true });
  });

  it("TestE2E_CreateTaskCommand: the error cases change nothing", async () => {
    // Independent cases, run side by side.
    const [exists, two, deprecated, declined] = await Promise.all([
      create(taskFile("exists.hcl", webTaskFile(dbTaskName)), "no\n"),
      create(taskFile("two.hcl", webTaskFile("new-task") + webTaskFile("new-task")), "yes\n"),
      create(taskFile("deprecated.hcl", `
task {
  name           = "new-task"
  description    = "Creates a new task"
  module         = "./test_modules/local_instances_file"
  services       = ["web"]
  enabled        = true
}`), "yes\n"),
      create(taskFile("declined.hcl", webTaskFile("new-task")), "no\n"),
    ]);
    expect(exists.code).not.toBe(0);
    expect(oneLine(exists.output)).toContain(`Error: unable to generate plan for '${dbTaskName}'`);
    expect(oneLine(exists.output)).toContain(`task with name ${dbTaskName} already exists`);
    expect(await taskStatus(cts, dbTaskName)).toBeDefined();

    expect(two.code).not.toBe(0);
    expect(oneLine(two.output)).toContain("cannot contain more than 1 task, contains 2 tasks");

    expect(deprecated.code).not.toBe(0);
    expect(oneLine(deprecated.output)).toContain("the 'services' field in the task block is no longer supported");

    expect(declined.code, declined.output).toBe(0);
    expect(oneLine(declined.output)).toContain("Do you want to perform these actions for 'new-task'?");
    expect(oneLine(declined.output)).toContain("Cancelled creating task 'new-task'");
    expect(await taskStatus(cts, "new-task")).toBeUndefined();
  }, 60_000);

  it("TestE2E_CreateTaskCommand_NoTaskFileProvided", async () => {
    const result = await runSubcommand(["task", "create", `-http-addr=${cts.address}`], { program: "consul-terraform-sync" });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("no task file provided");
    expect(result.output).toContain("For additional help try 'consul-terraform-sync task create --help'");
  });

  it("TestE2E_RecreateBadTask: a failed create leaves nothing behind, the same name is created next", async () => {
    const bad = await create(taskFile("bad.hcl", webTaskFile("recreated", "./no-exist")), "yes\n");
    expect(bad.code).not.toBe(0);
    expect(await taskStatus(cts, "recreated")).toBeUndefined();
    const good = await create(taskFile("good.hcl", webTaskFile("recreated")), "yes\n");
    expect(good.code, good.output).toBe(0);
    expect(await taskStatus(cts, "recreated")).toBeDefined();
  }, 60_000);

  it("TestE2E_CreateTaskCommand happy_path, auto_approve, with_tf_vars_files; TestE2E_CreateDeleteCreateTrigger", async () => {
    const happy = await create(taskFile("happy.hcl", webTaskFile("happy-task")), "yes\n");
    expect(happy.code, happy.output).toBe(0);
    expect(oneLine(happy.output)).toContain("Do you want to perform these actions for 'happy-task'?");
    expect(oneLine(happy.output)).toContain("Task 'happy-task' created");

    const auto = await create(taskFile("auto.hcl", webTaskFile("auto-task")), "", "-auto-approve");
    expect(auto.code, auto.output).toBe(0);
    expect(oneLine(auto.output)).toContain("Task 'auto-task' created");

    // with_tf_vars_files: both files' text lands in the task's variables.auto.tfvars.
    const objectVars = taskFile("object.tfvars", 'filename = "e2e.txt"');
    const sample = `
sample = {
  tags = ["engineer", "cts"]
  user_meta = {
    age             = "32"
    day_of_the_week = "Tuesday"
    name            = "michael"
  }
}`;
    const filenameVars = taskFile("filename.tfvars", sample);
    const withVars = await create(taskFile("vars.hcl", webTaskFile("vars-task", "./test_modules/with_tfvars_file",
      `variable_files = ["${filenameVars}","${objectVars}"]`)), "yes\n");
    expect(withVars.code, withVars.output).toBe(0);
    expect(oneLine(withVars.output)).toContain("Task 'vars-task' created");
    const tfvars = readFileSync(path.join(cts.dir, "vars-task", "variables.auto.tfvars"), "utf8");
    expect(tfvars).toContain('filename = "e2e.txt"');
    expect(tfvars).toContain(sample);
    expect(readFileSync(path.join(cts.dir, "vars-task", "e2e.txt"), "utf8")).toBe("engineer,cts,age=32,day_of_the_week=Tuesday,name=michael");

    // TestE2E_CreateDeleteCreateTrigger, on the task the happy path created.
    const deleted = await runSubcommand(["task", "delete", `-http-addr=${cts.address}`, "happy-task"], { input: "yes\n" });
    expect(deleted.code, deleted.output).toBe(0);
    expect(await taskStatus(cts, "happy-task")).toBeUndefined();
    const again = await create(path.join(files, "happy.hcl"), "yes\n");
    expect(again.code, again.output).toBe(0);
    expect(await taskStatus(cts, "happy-task")).toBeDefined();

    // Every created task (and the recreated one) runs once more when web changes.
    const tasks = ["happy-task", "auto-task", "recreated"];
    const before = await Promise.all(tasks.map((task) => eventCount(cts, task)));
    await registerService(consul, { ID: "web-1", Name: "web" });
    await Promise.all(tasks.map((task, i) => waitForEvents(cts, task, before[i]!)));
    expect(await Promise.all(tasks.map((task) => eventCount(cts, task)))).toEqual(before.map((count) => count + 1));
  }, 120_000);
});
