/**
 * Port of CTS's e2e/command_test.go (task enable/disable/delete against a running daemon, help
 * texts) run the way CTS's test runs it: the real daemon process with the real terraform and the
 * embedded Consul, the real CLI with stdin answers, stdout and stderr read together. One daemon
 * serves the scenarios CTS runs on several (each names the CTS test it ports). The create
 * scenarios are in command-create.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import {
  dbTask, dbTaskName, disabledTask, disabledTaskName, eventCount, registerService, runSubcommand, startCtsConsul,
  startCtsDaemon, taskStatus, waitForEvents, type CtsDaemon,
} from "./cts-e2e-harness.ts";

describe("CTS e2e command_test.go against a running daemon", () => {
  let consul: TestConsulDevServer;
  let cts: CtsDaemon;
  beforeAll(async () => {
    consul = await startCtsConsul();
    cts = await startCtsDaemon(consul, dbTask + disabledTask);
  }, 120_000);
  afterAll(async () => {
    await cts?.stop();
    await consul?.stop();
  });

  // TestE2E_MetaCommandErrors: every case fails (non-zero exit) with CTS's text, for disable and enable.
  it("TestE2E_MetaCommandErrors", async () => {
    const cases: [string, string[], string][] = [
      ["missing required arguments", [], "Error: this command requires one argument"],
      ["connect using wrong scheme", [`-http-addr=${cts.address.replace("http", "https")}`, dbTaskName], "HTTP response to HTTPS client"],
      ["unsupported argument", ["-unsupported-flag", "fake_handler_failure_task"], "Error: unsupported arguments in flags"],
      ["non-existing task", [`-http-addr=${cts.address}`, "non-existent-task"], "does not exist or has not been initialized yet"],
      ["out of order arguments", ["fake_handler_failure_task", `-http-addr=${cts.address}`], "All flags are required to appear before positional arguments"],
    ];
    const runs = ["disable", "enable"].flatMap((lifecycle) => cases.map(async ([name, args, expected]) => {
      const result = await runSubcommand(["task", lifecycle, ...args]);
      return { name: `${lifecycle}/${name}`, code: result.code, output: result.output, expected };
    }));
    for (const run of await Promise.all(runs)) {
      expect(run.output, run.name).toContain(run.expected);
      expect(run.code, run.name).not.toBe(0);
    }
  }, 60_000);

  // TestE2E_EnableTaskCommand: "happy path" (answering yes, with the deprecated -port beside
  // -http-addr) and "auto approve" enable the disabled task.
  it("TestE2E_EnableTaskCommand", async () => {
    const flags = [`-port=${cts.port}`, `-http-addr=${cts.address}`];
    const happy = await runSubcommand(["task", "enable", ...flags, disabledTaskName], { input: "yes\n" });
    expect(happy.code, happy.output).toBe(0);
    expect(happy.output).toContain("enable complete!");
    expect((await taskStatus(cts, disabledTaskName))?.enabled).toBe(true);

    const off = await runSubcommand(["task", "disable", `-http-addr=${cts.address}`, disabledTaskName]);
    expect(off.code, off.output).toBe(0);
    expect((await taskStatus(cts, disabledTaskName))?.enabled).toBe(false);
    const auto = await runSubcommand(["task", "enable", ...flags, "-auto-approve", disabledTaskName]);
    expect(auto.code, auto.output).toBe(0);
    expect(auto.output).toContain("enable complete!");
    expect((await taskStatus(cts, disabledTaskName))?.enabled).toBe(true);
  }, 90_000);

  // TestE2E_DisableTaskCommand, then TestE2E_ReenableTaskTriggers (CTS issue 320): once disabled and
  // enabled again, a Consul change runs the task exactly once.
  it("TestE2E_DisableTaskCommand and TestE2E_ReenableTaskTriggers", async () => {
    const disable = await runSubcommand(["task", "disable", `-http-addr=${cts.address}`, dbTaskName]);
    expect(disable.code, disable.output).toBe(0);
    expect(disable.output).toContain("disable complete!");
    expect((await taskStatus(cts, dbTaskName))?.enabled).toBe(false);

    const enable = await runSubcommand(["task", "enable", `-http-addr=${cts.address}`, dbTaskName], { input: "yes\n" });
    expect(enable.code, enable.output).toBe(0);
    const base = await eventCount(cts, dbTaskName);
    await registerService(consul, { ID: "api-1", Name: "api" });
    await waitForEvents(cts, dbTaskName, base);
    expect(await eventCount(cts, dbTaskName)).toBe(base + 1);
  }, 90_000);

  // TestE2E_DeleteTaskCommand: declined, missing task, approved, auto-approved.
  it("TestE2E_DeleteTaskCommand", async () => {
    const at = `-http-addr=${cts.address}`;
    const declined = await runSubcommand(["task", "delete", at, dbTaskName], { input: "no\n" });
    expect(declined.code, declined.output).toBe(0);
    expect(declined.output).toContain(`Do you want to delete '${dbTaskName}'?`);
    expect(declined.output).toContain(`Cancelled deleting task '${dbTaskName}'`);
    expect(await taskStatus(cts, dbTaskName)).toBeDefined();

    const missing = await runSubcommand(["task", "delete", at, "nonexistent_task"], { input: "yes\n" });
    expect(missing.code).not.toBe(0);
    expect(missing.output).toContain("Error: unable to delete 'nonexistent_task'");
    expect(missing.output).toContain("404 Not Found:");

    const approved = await runSubcommand(["task", "delete", at, dbTaskName], { input: "yes\n" });
    expect(approved.code, approved.output).toBe(0);
    expect(approved.output).toContain(`Do you want to delete '${dbTaskName}'?`);
    expect(approved.output).toContain(`Task '${dbTaskName}' has been marked for deletion`);
    // CTS checks at once: a task that is not running is deleted immediately.
    expect(await taskStatus(cts, dbTaskName)).toBeUndefined();

    const auto = await runSubcommand(["task", "delete", at, "-auto-approve", disabledTaskName]);
    expect(auto.code, auto.output).toBe(0);
    expect(auto.output).toContain(`Task '${disabledTaskName}' has been marked for deletion`);
    expect(await taskStatus(cts, disabledTaskName)).toBeUndefined();
  }, 60_000);
});

describe("CTS e2e command_test.go without a daemon", () => {
  // TestE2E_TaskCommand_Help: each task command's usage line and the auto-approve default.
  it("TestE2E_TaskCommand_Help", async () => {
    const cases: [string, string[]][] = [
      ["enable", ["Usage: consul-terraform-sync task enable [-help] [options] <task name>", "auto-approve [Default: false]"]],
      ["disable", ["Usage: consul-terraform-sync task disable [-help] [options] <task name>"]],
      ["delete", ["Usage: consul-terraform-sync task delete [-help] [options] <task name>", "auto-approve [Default: false]"]],
      ["create", ["Usage: consul-terraform-sync task create [-help] [options] -task-file=<task config>", "auto-approve [Default: false]"]],
    ];
    for (const [command, expected] of cases) {
      const result = await runSubcommand(["task", command, "-help"], { program: "consul-terraform-sync" });
      expect(result.code, command).toBe(0);
      for (const text of expected) expect(result.output, command).toContain(text);
    }
  }, 60_000);

  // TestE2E_CommandlessFlags: -help and -version without a command.
  it("TestE2E_CommandlessFlags", async () => {
    const help = await runSubcommand(["-help"], { program: "consul-terraform-sync" });
    expect(help.code).toBe(0);
    expect(help.output).toContain("Usage CLI: consul-terraform-sync <command> [-help] [options]");
    expect(help.output).toContain("Commands:");
    const version = await runSubcommand(["-version"], { program: "consul-terraform-sync" });
    expect(version.code).toBe(0);
    expect(version.output).toContain("consul-terraform-sync");
    expect(version.output).toContain("Compatible with Terraform");
  });
});
