import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../core/config/load-config.ts";
import { BlockOptions } from "../../../core/kernel/block-options.ts";
import { createPluginAjv } from "../../../core/kernel/plugin-ajv.ts";
import { NamedRegistry } from "../../../core/kernel/registries/named-registry.ts";
import { configBlockIssues, type BlockRegistries } from "../../../core/kernel/task-blocks.ts";
import { withValidatedInput } from "../../../core/kernel/validated-factories.ts";
import { type ConditionFactory, type DriverFactory, type InputSource, type ModuleInputFactory, taskBlockOf } from "../../../core/plugin-api/mod.ts";

const FILE = "examples/configs/cts-reference.hcl";
const load = () => loadConfig({ paths: [{ kind: "file", path: FILE }], env: {}, cwd: process.cwd(), hostName: "h" });
const create = (): never => { throw new Error("not used"); };

function registries(drivers: DriverFactory[], conditions: ConditionFactory[], moduleInputs: ModuleInputFactory[]): BlockRegistries {
  const fill = <T extends { name: string }>(kind: string, entries: T[]) => {
    const registry = new NamedRegistry<T>(kind);
    for (const entry of entries) registry.register(entry);
    return registry;
  };
  return { drivers: fill("driver", drivers), conditions: fill("condition", conditions), moduleInputs: fill("module input", moduleInputs) };
}

describe("configBlockIssues (the kernel checks each plugin-owned block against its owner)", () => {
  test("driver body and condition fields are checked against each factory's optionsSchema", async () => {
    const { config, fileOf } = await load();
    const driver: DriverFactory = {
      name: "terraform", create,
      optionsSchema: { type: "object", additionalProperties: false, properties: { log: { type: "boolean" } } },
    };
    const strictServices: ConditionFactory = {
      name: "services", create,
      optionsSchema: { type: "object", properties: { filter: { type: "string", maxLength: 3 } } },
    };
    const others = ["catalog-services", "consul-kv", "schedule"].map((name): ConditionFactory => ({ name, create }));
    const inputs = ["services", "consul-kv"].map((name): ModuleInputFactory => ({ name, create }));
    const issues = configBlockIssues(config, fileOf, registries([driver], [strictServices, ...others], inputs), new BlockOptions(createPluginAjv()));
    expect(issues).toEqual([
      { file: FILE, path: "driver.terraform.backend", message: `unknown field "backend" (expected one of: log)` },
      { file: FILE, path: "driver.terraform.persist_log", message: `unknown field "persist_log" (expected one of: log)` },
      { file: FILE, path: "driver.terraform.required_providers", message: `unknown field "required_providers" (expected one of: log)` },
      { file: FILE, path: "task[0].condition.services.filter", message: "must NOT have more than 3 characters" },
    ]);
  });

  test("an invalid plugin schema is reported, not thrown", async () => {
    const { config, fileOf } = await load();
    const driver: DriverFactory = { name: "terraform", create, optionsSchema: { type: "no-such-type" } };
    const issues = configBlockIssues(config, fileOf, registries(
      [driver],
      ["services", "catalog-services", "consul-kv", "schedule"].map((name) => ({ name, create })),
      ["services", "consul-kv"].map((name) => ({ name, create })),
    ), new BlockOptions(createPluginAjv()));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toContain("the plugin's optionsSchema is invalid");
  });
});

describe("a driver's own rules for its block", () => {
  test("templates pass only in the fields the driver declares; its validate hook reports with file and path", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cts-driver-rules-"));
    try {
      const file = path.join(dir, "cts.json");
      writeFileSync(file, JSON.stringify({
        driver: { vaulty: { token: `{{ with secret "kv/tok" }}{{ .Data.data.t }}{{ end }}`, label: `{{ env "HOME" }}` } },
      }));
      const { config, fileOf } = await loadConfig({ paths: [{ kind: "file", path: file }], env: {}, cwd: dir, hostName: "h" });
      const driver: DriverFactory = {
        name: "vaulty", create, templateFields: ["token"],
        optionsSchema: { type: "object", properties: { token: { type: "string" }, label: { type: "string" } } },
        validate: (options, whole) => whole.vault?.enabled === true ? [] : [{ path: "token", message: `reads Vault (${String(options.token).slice(0, 9)})` }],
      };
      const issues = configBlockIssues(config, fileOf, registries([driver], [], []), new BlockOptions(createPluginAjv()));
      expect(issues).toEqual([
        { file, path: "driver.vaulty.token", message: "reads Vault ({{ with s)" },
        {
          file, path: "driver.vaulty.label",
          message: "template syntax ({{ env }}, {{ key }}, {{ with secret }}) is only allowed in terraform_provider blocks and in driver.vaulty.token",
        },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("task-level blocks a driver adds (DriverFactory.taskBlocks)", () => {
  const cloudy: DriverFactory = {
    name: "cloudy", create,
    taskBlocks: {
      terraform_cloud_workspace: { type: "object", additionalProperties: false, properties: { execution_mode: { type: "string" } } },
    },
    validateTask: (task) => taskBlockOf(task, "terraform_cloud_workspace")?.execution_mode === "agent"
      ? [{ path: "terraform_cloud_workspace.execution_mode", message: "needs a pool" }]
      : [],
  };
  const plain: DriverFactory = { name: "plain", create };
  const services: ConditionFactory = { name: "services", create };

  async function issuesFor(driver: string, workspace: Record<string, string>) {
    const dir = mkdtempSync(path.join(tmpdir(), "cts-task-blocks-"));
    try {
      const file = path.join(dir, "cts.json");
      writeFileSync(file, JSON.stringify({
        driver: { [driver]: {} },
        task: { name: "t", module: "./m", condition: { services: { names: ["web"] } }, terraform_cloud_workspace: workspace },
      }));
      const { config, fileOf } = await loadConfig({ paths: [{ kind: "file", path: file }], env: {}, cwd: dir, hostName: "h" });
      return configBlockIssues(config, fileOf, registries([cloudy, plain], [services], []), new BlockOptions(createPluginAjv()))
        .map((issue) => ({ ...issue, file: path.basename(issue.file) }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  test("the declaring driver's schema and rules check the block; another driver refuses it", async () => {
    // CTS: terraform_cloud_workspace belongs to the terraform-cloud driver, refused under any other.
    expect(await issuesFor("plain", { execution_mode: "remote" })).toEqual([
      { file: "cts.json", path: "task[0].terraform_cloud_workspace", message: `is only supported by the "cloudy" driver` },
    ]);
    expect(await issuesFor("cloudy", { execution_mode: "remote", colour: "red" })).toEqual([
      { file: "cts.json", path: "task[0].terraform_cloud_workspace.colour", message: `unknown field "colour" (expected one of: execution_mode)` },
    ]);
    expect(await issuesFor("cloudy", { execution_mode: "agent" })).toEqual([
      { file: "cts.json", path: "task[0].terraform_cloud_workspace.execution_mode", message: "needs a pool" },
    ]);
  });
});

describe("BlockOptions and the factories the kernel hands out", () => {
  const schema = {
    type: "object", additionalProperties: false, required: ["path"],
    properties: { path: { type: "string", minLength: 1 }, colour: { type: "string", default: "blue" } },
  };

  test("the owner's defaults are applied, the label kept, the result frozen", () => {
    const result = new BlockOptions(createPluginAjv()).check({ name: "flag", optionsSchema: schema }, { type: "flag", path: "a" }, "f.hcl", "task[0].condition.flag");
    expect(result).toEqual({ ok: true, value: { type: "flag", path: "a", colour: "blue" } });
    expect(result.ok && Object.isFrozen(result.value)).toBe(true);
  });

  test("a factory's create receives its validated options and rejects a block its schema rejects", () => {
    const seen: unknown[] = [];
    const factory: ConditionFactory = {
      name: "flag", optionsSchema: schema,
      create(config) {
        seen.push(config);
        return { start: async () => {}, stop: () => {} } satisfies InputSource;
      },
    };
    const wrapped = withValidatedInput(factory, "condition", new BlockOptions(createPluginAjv()));
    expect(wrapped.name).toBe("flag");
    wrapped.create({ type: "flag", path: "a" }, "t");
    expect(seen).toEqual([{ type: "flag", path: "a", colour: "blue" }]);
    expect(() => wrapped.create({ type: "flag", path: "a", size: 3 }, "t")).toThrow(
      `Cannot configure task "t": condition.flag.size: unknown field "size" (expected one of: colour, path)`,
    );
  });
});
