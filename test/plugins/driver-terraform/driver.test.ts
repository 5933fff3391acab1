/**
 * The Terraform driver against the real `terraform` binary, the real process runner and file
 * system, with a local backend (the Consul backend is covered end to end in test/e2e).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import type { ApplyResult, DriverConfig, DriverFactory, ProcessRunner, ProviderConfig, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createProcessRunner } from "../../../core/runtime/process-runner.ts";
import { createTerraformDriverFactory } from "../../../plugins/driver-terraform/src/driver-factory.ts";
import { captureLogger } from "../../../harness/driver-terraform/capture-logger.ts";
import { consulConfig, inputsFor, instance, provider, taskConfig } from "../../../harness/driver-terraform/fixtures.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";
import { taskInputSpecsOf, taskInputTemplatesOf } from "../../helpers/task-input-specs.ts";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";

const modules = join(import.meta.dirname, "modules");
const tmp = tempDir("driver");
const savedEnv = { ...process.env };

beforeAll(() => {
  // The process runner layers task env over the daemon's; make the daemon's test-clean.
  for (const [key, value] of Object.entries(terraformTestEnv())) process.env[key] = value;
  for (const key of ["TF_DATA_DIR", "TF_PLUGIN_CACHE_DIR", "TF_WORKSPACE", "TF_LOG"]) delete process.env[key];
});
afterAll(() => {
  process.env = savedEnv;
  tmp.remove();
});

function setup(name: string, driverOptions: Record<string, unknown> = {}, processes: ProcessRunner = createProcessRunner()) {
  const logger = captureLogger();
  const factory = createTerraformDriverFactory({ processes, fs: createFileSystem(tmp.path), logger });
  const dir = join(tmp.path, name);
  mkdirSync(dir, { recursive: true });
  const driver: DriverConfig = {
    name: "terraform",
    options: { backend: { local: { path: join(dir, "state.tfstate") } }, ...driverOptions },
  };
  const create = (task: Partial<TaskConfig>, providers: ProviderConfig[] = []) => {
    const config = taskConfig({ name, ...task });
    return factory.create(config, {
      driver, providers, consul: consulConfig(), workingDir: join(dir, "work"), logger, inputs: taskInputSpecsOf(config), templates: taskInputTemplatesOf(config),
    });
  };
  return { factory, driver, logger, dir, create };
}

const signal = new AbortController().signal;

describe("terraform driver", () => {
  test("init, render, plan, apply, plan again: files follow the services, task_env reaches terraform", async () => {
    const { create, dir, logger } = setup("echo-task", { log: true, persist_log: true });
    const driver = await create(
      { module: join(modules, "echo"), variables: { dir: JSON.stringify(dir) }, providers: ["terraform"] },
      [provider("terraform", { task_env: { ECHO_TOKEN: "from-task-env" } })],
    );
    await driver.init(signal);
    for (const file of ["main.tf", "variables.tf", "variables.module.tf", "variables.auto.tfvars", "providers.auto.tfvars", "terraform.tfvars", "terraform.tfvars.tmpl"]) {
      expect(existsSync(join(dir, "work", file)), file).toBe(true);
    }
    expect(await driver.version()).toMatch(/^terraform \d+\.\d+\.\d+/);

    await driver.render(inputsFor([instance("web", "n1"), instance("api", "n2")]), signal);
    const planned = await driver.plan(signal);
    expect(planned.changesPresent).toBe(true);
    expect(planned.plan).toContain("terraform_data.write");
    // Beyond CTS: the apply reports terraform's resource counts, the resources by address and action
    // (from the saved plan's JSON), the module's outputs and the time of each phase, kept in the run history.
    const heard: string[] = [];
    const applied = await driver.apply(signal, { output: (phase, chunk) => heard.push(`${phase}:${chunk}`) });
    expect(applied).toEqual({
      summary: { add: 1, change: 0, destroy: 0 },
      resources: [{ address: "module.echo-task.terraform_data.write", action: "create" }],
      outputs: { ids: { value: "api.n2.dc1,web.n1.dc1" } },
      phases_ms: { plan: expect.any(Number), apply: expect.any(Number) },
    });
    // The output is told as it comes, phase by phase; the plan file is gone after the run.
    expect(heard.join("")).toMatch(/^plan:[\s\S]*will be created[\s\S]*apply:[\s\S]*Apply complete! Resources: 1 added/);
    expect(existsSync(join(dir, "work", "cts-runtime.tfplan"))).toBe(false);
    expect(readFileSync(join(dir, "ids.txt"), "utf8")).toBe("api.n2.dc1,web.n1.dc1");
    expect(readFileSync(join(dir, "env.txt"), "utf8")).toBe("from-task-env");
    expect((await driver.plan(signal)).changesPresent).toBe(false);

    await driver.render(inputsFor([instance("web", "n1")]), signal);
    expect(await driver.apply(signal)).toMatchObject({
      summary: { add: 1, change: 0, destroy: 1 }, resources: [{ address: "module.echo-task.terraform_data.write", action: "replace" }],
    });
    expect(readFileSync(join(dir, "ids.txt"), "utf8")).toBe("web.n1.dc1");
    // Workspace = task name (local backend keeps non-default workspaces under terraform.tfstate.d/).
    expect(readFileSync(join(dir, "work", ".terraform", "environment"), "utf8")).toBe("echo-task");
    // log = true: Terraform's output went to the logger; persist_log: a trace log file.
    expect(logger.lines.some((line) => line.message.includes("Apply complete!"))).toBe(true);
    expect(readFileSync(join(dir, "work", "terraform.log"), "utf8")).toContain("[TRACE]");
  });

  test("beyond CTS: outputs as Terraform reports them, sensitive ones without value; inspect's plan lists the resources", async () => {
    // CTS's default backend, Consul (terraform console finds no state of a local backend's workspace).
    const consul = await startConsulDevServer();
    onTestFinished(() => consul.stop());
    const { create } = setup("outputs-task", { log: true, backend: { consul: { address: consul.address, path: "cts-test/outputs" } } });
    const driver = await create({ module: join(modules, "outputs") });
    await driver.init(signal);
    await driver.render(inputsFor([instance("web", "n1"), instance("api", "n2")]), signal);
    const inspected = await driver.plan(signal);
    expect(inspected.resources).toEqual([
      { address: 'module.outputs-task.terraform_data.each["api.n2.dc1"]', action: "create" },
      { address: 'module.outputs-task.terraform_data.each["web.n1.dc1"]', action: "create" },
    ]);
    // The inspection's text is the plan, without the lines about the saved plan file.
    expect(inspected.plan).toContain("Plan: 2 to add, 0 to change, 0 to destroy.");
    expect(inspected.plan).not.toMatch(/Saved the plan|terraform apply/);
    const applied = await driver.apply(signal) as ApplyResult;
    expect(applied.outputs).toEqual({
      addresses: { value: ["10.0.0.1", "10.0.0.1"] },
      awkward: { value: "quote \" backslash \\ dollar ${x} percent %{y} tab \t é ✓ <tag>" },
      by_id: { value: { "api.n2.dc1": "10.0.0.1", "web.n1.dc1": "10.0.0.1" } },
      password: { sensitive: true },
    });
    expect(JSON.stringify(applied)).not.toContain("hunter2");
  });

  test("init again after a config change keeps the workspace and state", async () => {
    const { create, dir } = setup("reinit-task");
    const first = await create({ module: join(modules, "echo"), variables: { dir: JSON.stringify(dir) } });
    await first.init(signal);
    await first.render(inputsFor([instance("web", "n1")]), signal);
    await first.apply(signal);
    const second = await create({
      module: join(modules, "echo"), variables: { dir: JSON.stringify(dir) }, description: "now described",
    });
    await second.init(signal);
    await second.render(inputsFor([instance("web", "n1")]), signal);
    expect((await second.plan(signal)).changesPresent).toBe(false);
    expect(readFileSync(join(dir, "work", "main.tf"), "utf8")).toContain("# Description: now described");
  });

  test("a module path that does not exist is a clear init error", async () => {
    const { create } = setup("missing-module");
    const driver = await create({ module: "./no/such/module" });
    await expect(driver.init(signal)).rejects.toMatchObject({
      code: "CTS_ERR_DRIVER",
      message: expect.stringMatching(/^Cannot initialise task "missing-module": module path .*no\/such\/module does not exist/),
    });
  });

  test("a module without a services variable says what to add, at its first plan or apply", async () => {
    // CTS validates when it first applies (after Consul answered), not when the task is loaded.
    const { create } = setup("no-services");
    const driver = await create({ module: join(modules, "no-services") });
    await driver.init(signal);
    const missing = { code: "CTS_ERR_DRIVER", message: expect.stringContaining('declares no "services" variable; add `variable "services" {}`') };
    await expect(driver.plan(signal)).rejects.toMatchObject(missing);
    await expect(driver.apply(signal)).rejects.toMatchObject(missing);
  });

  test("a saved plan made stale by another run on the same state is planned again, as CTS's one apply would wait for the lock", async () => {
    // Just before the driver applies its saved plan, a plain `terraform apply` in the same working
    // directory and workspace (a second daemon, a person) changes the state.
    const real = createProcessRunner();
    let intruded = false;
    const processes: ProcessRunner = {
      ...real,
      run: async (command, args, options) => {
        if (args[0] === "apply" && args.some((arg) => arg.endsWith(".tfplan")) && !intruded) {
          intruded = true;
          const other = await real.run(command, ["apply", "-auto-approve", "-input=false", "-no-color"], { ...options, onOutput: undefined });
          expect(other.exitCode, other.stderr).toBe(0);
        }
        return real.run(command, args, options);
      },
    };
    const { create, dir, logger } = setup("stale-plan", {}, processes);
    const driver = await create({ module: join(modules, "echo"), variables: { dir: JSON.stringify(dir) } });
    await driver.init(signal);
    await driver.render(inputsFor([instance("web", "n1")]), signal);
    const applied = (await driver.apply(signal)) as ApplyResult;
    expect(intruded).toBe(true);
    expect(logger.lines.some((line) => line.message.startsWith("the state changed after the plan"))).toBe(true);
    // Planned again against the state the other run left: nothing was left to do.
    expect(applied.summary).toEqual({ add: 0, change: 0, destroy: 0 });
    expect(readFileSync(join(dir, "ids.txt"), "utf8")).toBe("web.n1.dc1");
  }, 120_000);

  test("a failing apply is an error quoting terraform", async () => {
    const { create } = setup("failing");
    const driver = await create({ module: join(modules, "failing") });
    await driver.init(signal);
    await driver.render(inputsFor([instance("web", "n1")]), signal);
    await expect(driver.apply(signal)).rejects.toMatchObject({
      code: "CTS_ERR_DRIVER",
      message: expect.stringMatching(/^Cannot apply task "failing": terraform apply exited with 1: Error: [\s\S]*boom: the module failed on purpose/),
    });
  });

  test("a failing init (bad backend config) is an error quoting terraform", async () => {
    const { create } = setup("bad-init", { backend: { local: { no_such_attribute: true } } });
    const driver = await create({ module: join(modules, "echo"), variables: { dir: '"/tmp"' } });
    await expect(driver.init(signal)).rejects.toMatchObject({
      code: "CTS_ERR_DRIVER",
      message: expect.stringMatching(/^Cannot initialise task "bad-init": terraform init exited with 1: Error: .*no_such_attribute/s),
    });
  });

  test("cancelling a run aborts terraform", async () => {
    const { create, dir } = setup("cancel");
    const driver = await create({ module: join(modules, "echo"), variables: { dir: JSON.stringify(dir) } });
    await driver.init(signal);
    const abort = new AbortController();
    const applying = driver.apply(abort.signal);
    abort.abort(new Error("stop now"));
    await expect(applying).rejects.toThrow("stop now");
  });
});

describe("binary selection", () => {
  function verify(factory: DriverFactory, options: Record<string, unknown>) {
    return factory.verify!({ name: "terraform", options }, signal);
  }

  test("no binary in the configured directory: PATH's is used with a warning, else the error names the fix", async () => {
    const { factory, logger } = setup("nobinary");
    const empty = join(tmp.path, "empty-bin");
    mkdirSync(empty, { recursive: true });
    // CTS downloads Terraform into an empty `path` (its e2e configs set path = the test's cwd);
    // nothing is downloaded here, so the daemon still starts with the binary on PATH.
    expect(await verify(factory, { path: empty })).toMatch(/^terraform \d+\.\d+\.\d+/);
    expect(JSON.stringify(logger.lines)).toContain("no Terraform in the configured path, using the one on PATH");
    const noPath = createTerraformDriverFactory({
      processes: { ...createProcessRunner(), which: async () => undefined },
      fs: createFileSystem(tmp.path),
      logger: captureLogger(),
    });
    await expect(verify(noPath, { path: empty })).rejects.toMatchObject({
      code: "CTS_ERR_DRIVER_BINARY",
      message: expect.stringContaining(`holds neither "terraform" nor "tofu" and PATH has neither; put one there, or set driver "terraform" { path =`),
    });
    await expect(verify(factory, { path: join(tmp.path, "does-not-exist") })).rejects.toMatchObject({
      code: "CTS_ERR_DRIVER_BINARY",
      message: expect.stringContaining("does not exist; install Terraform or OpenTofu on PATH, or set driver"),
    });
  });

  test("path may be a directory holding tofu, or the binary itself; tofu runs every command", async () => {
    // A `tofu` that forwards to terraform: OpenTofu is not installed here, the command lines are the same.
    const bin = join(tmp.path, "tofu-bin");
    mkdirSync(bin, { recursive: true });
    const realTerraform = (await createProcessRunner().which("terraform"))!;
    writeFileSync(join(bin, "tofu"), `#!/bin/sh\nexec "${realTerraform}" "$@"\n`);
    chmodSync(join(bin, "tofu"), 0o755);
    const { factory, create, dir } = setup("tofu-task", { path: bin });
    expect(await verify(factory, { path: bin })).toMatch(/^tofu \d+\.\d+\.\d+/);
    expect(await verify(factory, { path: join(bin, "tofu") })).toMatch(/^tofu \d+\.\d+\.\d+/);
    const driver = await create({ module: join(modules, "echo"), variables: { dir: JSON.stringify(dir) } });
    await driver.init(signal);
    await driver.render(inputsFor([instance("db", "n3")]), signal);
    await driver.apply(signal);
    expect(readFileSync(join(dir, "ids.txt"), "utf8")).toBe("db.n3.dc1");
    expect(await driver.version()).toMatch(/^tofu /);
  });
});
