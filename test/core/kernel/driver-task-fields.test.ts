/**
 * Task-level fields a driver declares (DriverFactory.taskBlocks) belong to that driver: core's task
 * schema lets them through, the kernel checks them by the task's driver, refuses them under any
 * other, and refuses fields no driver declares with core's unknown-field wording. Real config files
 * through the real loader; the CLI's `validate` (real kernel, built-in plugins) for terraform-cloud.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runValidate } from "../../../core/cli/commands/validate.ts";
import { taskRequestFromFile } from "../../../core/cli/commands/task-request.ts";
import type { CliIo } from "../../../core/runtime/cli-io.ts";
import { loadConfig } from "../../../core/config/load-config.ts";
import { BlockOptions } from "../../../core/kernel/block-options.ts";
import { completeTask } from "../../../core/kernel/complete-task.ts";
import { createPluginAjv } from "../../../core/kernel/plugin-ajv.ts";
import { NamedRegistry } from "../../../core/kernel/registries/named-registry.ts";
import { configBlockIssues, type BlockRegistries } from "../../../core/kernel/task-blocks.ts";
import type { ConditionFactory, DriverFactory } from "../../../core/plugin-api/mod.ts";

const dir = mkdtempSync(path.join(tmpdir(), "cts-driver-task-fields-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const create = (): never => { throw new Error("not used"); };
/** A third-party driver adding a task-level block `my_block`, with a default and a typed field. */
const mine: DriverFactory = {
  name: "mine",
  create,
  taskBlocks: {
    my_block: {
      type: "object", additionalProperties: false,
      properties: { colour: { type: "string" }, size: { type: "integer", default: 3 } },
    },
  },
};
const other: DriverFactory = { name: "other", create };
const services: ConditionFactory = { name: "services", create };

function registries(): BlockRegistries {
  const fill = <T extends { name: string }>(kind: string, entries: T[]) => {
    const registry = new NamedRegistry<T>(kind);
    for (const entry of entries) registry.register(entry);
    return registry;
  };
  return { drivers: fill("driver", [mine, other]), conditions: fill("condition", [services]), moduleInputs: fill("module input", []) };
}

async function load(name: string, driver: string, taskExtra: string) {
  const file = path.join(dir, `${name}.hcl`);
  writeFileSync(file, `driver "${driver}" {}
task {
  name   = "web"
  module = "./m"
  condition "services" {
    names = ["web"]
  }
${taskExtra}
}
`);
  const loaded = await loadConfig({ paths: [{ kind: "file", path: file }], env: {}, cwd: dir, hostName: "h" });
  const blocks = new BlockOptions(createPluginAjv());
  const issues = configBlockIssues(loaded.config, loaded.fileOf, registries(), blocks);
  return { file, issues, config: loaded.config, blocks };
}

describe("task-level fields a driver declares", () => {
  test("a third-party driver's my_block is accepted with that driver (HCL block syntax, weakly decoded, defaulted) and refused under another", async () => {
    const accepted = await load("mine", "mine", `  my_block {\n    colour = "red"\n  }`);
    expect(accepted.issues).toEqual([]);
    const completed = completeTask(accepted.config.tasks[0]!, registries(), accepted.blocks) as unknown as Record<string, unknown>;
    expect(completed.my_block).toEqual({ colour: "red", size: 3 });

    const wrongType = await load("mine-bad", "mine", `  my_block {\n    colour = "red"\n    size   = "big"\n  }`);
    expect(wrongType.issues).toEqual([
      { file: wrongType.file, path: "task[0].my_block.size", message: `must be a whole number, got "big"` },
    ]);

    const refused = await load("other", "other", `  my_block {\n    colour = "red"\n  }`);
    expect(refused.issues).toEqual([
      { file: refused.file, path: "task[0].my_block", message: `is only supported by the "mine" driver` },
    ]);
  });

  test("a task field no driver declares is refused with file, path and did-you-mean over core's and the drivers' fields", async () => {
    const misspelt = await load("misspelt", "mine", `  my_blok {\n    colour = "red"\n  }`);
    expect(misspelt.issues).toEqual([
      { file: misspelt.file, path: "task[0].my_blok", message: `unknown field "my_blok" (did you mean "my_block"?)` },
    ]);
    const core = await load("core", "other", `  descripton = "x"`);
    expect(core.issues).toEqual([
      { file: core.file, path: "task[0].descripton", message: `unknown field "descripton" (did you mean "description"?)` },
    ]);
    // A field core computes is never a driver's: refused at load.
    await expect(load("computed", "other", `  driver = "x"`)).rejects.toThrow(/task\[0\]\.driver: unknown field "driver"/);
  });
});

function captureIo(env: Record<string, string>): CliIo & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    readLine: () => Promise.resolve(undefined),
    env,
    cwd: dir,
    stdout: () => out,
    stderr: () => err,
  };
}

describe("terraform-cloud's task fields through validate (real kernel, built-in plugins)", () => {
  const tfcTask = (driver: string, extra: string): string => {
    const file = path.join(dir, `${driver}-${extra.length}.hcl`);
    writeFileSync(file, `driver "${driver}" {${driver === "terraform-cloud" ? `\n  organization = "acme"\n  token = "t"\n` : ""}}
task {
  name   = "web"
  module = "./m"
  condition "services" {
    names = ["web"]
  }
${extra}
}
`);
    return file;
  };

  test("CTS: the deprecated task terraform_version is refused under another driver, warned about and accepted under terraform-cloud", async () => {
    const refusedFile = tfcTask("terraform", `  terraform_version = "1.9.5"`);
    const refused = captureIo({});
    expect(await runValidate({ configPaths: [{ kind: "file", path: refusedFile }], io: refused })).toBe(15);
    expect(refused.stderr()).toContain(`${refusedFile}: task[0].terraform_version: is only supported by the "terraform-cloud" driver`);

    // CTS: an empty terraform_version is unset, so any driver accepts it.
    const emptyFile = tfcTask("terraform", `  terraform_version = ""\n  terraform_cloud_workspace {\n    execution_mode = ""\n  }`);
    const empty = captureIo({});
    expect(await runValidate({ configPaths: [{ kind: "file", path: emptyFile }], io: empty }), empty.stderr()).toBe(0);

    const acceptedFile = tfcTask("terraform-cloud", `  terraform_version = "1.9.5"`);
    const accepted = captureIo({});
    expect(await runValidate({ configPaths: [{ kind: "file", path: acceptedFile }], io: accepted }), accepted.stderr()).toBe(0);
    expect(accepted.stderr()).toContain(`${acceptedFile}: task[0].terraform_version: deprecated; use terraform_cloud_workspace { terraform_version = "..." }`);

    // The folded version is checked by the driver's rules as the block's own field (CTS: exact x.y.z).
    const badFile = tfcTask("terraform-cloud", `  terraform_version = "1.9"`);
    const bad = captureIo({});
    expect(await runValidate({ configPaths: [{ kind: "file", path: badFile }], io: bad })).toBe(15);
    expect(bad.stderr()).toContain(`task[0].terraform_cloud_workspace.terraform_version: must be an exact version such as 1.9.5, got "1.9"`);

    // A single block written twice (CTS: one block), now shaped by the driver's schema, not core's specs.
    const twiceFile = tfcTask("terraform-cloud", `  terraform_cloud_workspace {\n    execution_mode = "remote"\n  }\n  terraform_cloud_workspace {\n    execution_mode = "remote"\n  }`);
    const twice = captureIo({});
    expect(await runValidate({ configPaths: [{ kind: "file", path: twiceFile }], io: twice })).toBe(15);
    expect(twice.stderr()).toContain(`${twiceFile}: task[0].terraform_cloud_workspace: only one "terraform_cloud_workspace" block can be configured`);
  });
});

describe("task create -task-file (the CLI's request builder, built-in drivers)", () => {
  test("an unknown task field is still refused with did-you-mean; a built-in driver's field is not", async () => {
    const file = (name: string, extra: string): string => {
      writeFileSync(path.join(dir, name), `task {\n  name = "web"\n  module = "./m"\n  condition "services" {\n    names = ["web"]\n  }\n${extra}\n}\n`);
      return name;
    };
    await expect(taskRequestFromFile(file("typo.hcl", `  descripton = "x"`), dir, {}))
      .rejects.toThrow(`task[0].descripton: unknown field "descripton" (did you mean "description"?)`);
    await expect(taskRequestFromFile(file("tfc.hcl", `  terraform_cloud_workspace {\n    execution_mode = "remote"\n  }`), dir, {}))
      .resolves.toMatchObject({ name: "web" });
  });
});
