/**
 * The `driver "<name>" {}` body belongs to its driver: core keeps it as written and the kernel shapes
 * and decodes it by the driver's own schema (nested blocks, labelled blocks keyed by label, HCL's
 * block-syntax maps, CTS's weak decoding), whatever fields the driver has. Real files, real loader.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../../core/config/load-config.ts";
import { BlockOptions } from "../../../core/kernel/block-options.ts";
import { completeDriverBlock } from "../../../core/kernel/driver-body.ts";
import { createPluginAjv } from "../../../core/kernel/plugin-ajv.ts";
import { NamedRegistry } from "../../../core/kernel/registries/named-registry.ts";
import { configBlockIssues, type BlockRegistries } from "../../../core/kernel/task-blocks.ts";
import type { ConditionFactory, DriverFactory, JsonSchema } from "../../../core/plugin-api/mod.ts";
import { terraformOptionsSchema } from "../../../plugins/driver-terraform/src/options.ts";
import { sharedStateProblems } from "../../../plugins/driver-terraform/src/shared-state.ts";

const dir = mkdtempSync(path.join(tmpdir(), "cts-driver-body-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const create = (): never => { throw new Error("not used"); };
/** A third-party driver whose fields core has never heard of. */
const fleet: DriverFactory = {
  name: "fleet",
  create,
  optionsSchema: {
    type: "object", additionalProperties: false,
    properties: {
      settings: {
        type: "object", additionalProperties: false,
        properties: { retries: { type: "integer" }, dry_run: { type: "boolean", default: false } },
      },
      // Labelled blocks keyed by label: `target "eu" { weight = 2 }`.
      target: { type: "object", additionalProperties: { type: "object", properties: { weight: { type: "integer" } }, additionalProperties: false } },
      labels: { type: "object", additionalProperties: { type: "string" } },
      zones: { type: "array", items: { type: "string" } },
    },
  } as JsonSchema,
};
const services: ConditionFactory = { name: "services", create };
const terraform: DriverFactory = { name: "terraform", create, optionsSchema: terraformOptionsSchema };

function registries(): BlockRegistries {
  const fill = <T extends { name: string }>(kind: string, entries: T[]) => {
    const registry = new NamedRegistry<T>(kind);
    for (const entry of entries) registry.register(entry);
    return registry;
  };
  return { drivers: fill("driver", [fleet, terraform]), conditions: fill("condition", [services]), moduleInputs: fill("module input", []) };
}

const TASK = `task {\n  name = "web"\n  module = "./m"\n  condition "services" {\n    names = ["web"]\n  }\n}\n`;

async function check(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const loaded = await loadConfig({ paths: Object.keys(files).map((name) => ({ kind: "file" as const, path: name })), env: {}, cwd: dir, hostName: "h" });
  const blocks = new BlockOptions(createPluginAjv());
  const issues = configBlockIssues(loaded.config, loaded.fileOf, registries(), blocks);
  return { issues, driver: completeDriverBlock(loaded.config, fleet, blocks) };
}

describe("a driver body decoded by the driver's own schema", () => {
  test("HCL block syntax: nested block, labelled blocks, block-syntax map, weak decoding, defaults", async () => {
    const { issues, driver } = await check({
      "fleet.hcl": `driver "fleet" {
  settings {
    retries = "3"
  }
  target "eu" {
    weight = 2
  }
  target "us" {
    weight = "1"
  }
  labels {
    team = "net"
  }
  zones = "a"
}
${TASK}`,
    });
    expect(issues).toEqual([]);
    expect(driver.options).toEqual({
      settings: { retries: 3, dry_run: false },
      target: { eu: { weight: 2 }, us: { weight: 1 } },
      labels: { team: "net" },
      zones: ["a"],
    });
  });

  test("bodies from an HCL and a JSON file merge field by field; a block written twice is one problem with file and path", async () => {
    const merged = await check({
      "a.hcl": `driver "fleet" {\n  settings {\n    retries = 2\n  }\n}\n${TASK}`,
      "b.json": JSON.stringify({ driver: { fleet: { settings: [{ dry_run: true }], target: [{ eu: [{ weight: 5 }] }] } } }),
    });
    expect(merged.issues).toEqual([]);
    expect(merged.driver.options).toEqual({ settings: { retries: 2, dry_run: true }, target: { eu: { weight: 5 } } });

    const twice = await check({
      "twice.hcl": `driver "fleet" {\n  settings {\n    retries = 1\n  }\n  settings {\n    retries = 2\n  }\n}\n${TASK}`,
    });
    expect(twice.issues).toEqual([
      { file: "twice.hcl", path: "driver.fleet.settings", message: `only one "settings" block can be configured` },
    ]);

    const wrong = await check({ "wrong.hcl": `driver "fleet" {\n  target "eu" {\n    weight = "heavy"\n  }\n}\n${TASK}` });
    expect(wrong.issues).toEqual([
      { file: "wrong.hcl", path: "driver.fleet.target.eu.weight", message: `must be a whole number, got "heavy"` },
    ]);
  });

  test("a backend label CTS does not support is named with the ones it does (CTS: unsupported Terraform backend by Sync \"foo\")", async () => {
    const { issues } = await check({ "backend.hcl": `driver "terraform" {\n  backend "foo" {}\n}\n${TASK}` });
    expect(issues).toEqual([{
      file: "backend.hcl", path: "driver.terraform.backend",
      message: `"foo" is not supported (expected one of: azurerm, consul, cos, gcs, kubernetes, local, manta, pg, s3)`,
    }]);
  });

  test("driver-terraform's own rule against the rest of the config: no local backend under high_availability", async () => {
    // Was a core config rule (config-rules.ts) spelling driver-terraform's backend; now the driver's validate hook.
    const file = path.join(dir, "ha-local.hcl");
    writeFileSync(file, `driver "terraform" {\n  backend "local" {\n    path = "s.tfstate"\n  }\n}\nhigh_availability {\n  cluster {\n    name = "c"\n  }\n}\n${TASK}`);
    const { config } = await loadConfig({ paths: [{ kind: "file", path: file }], env: {}, cwd: dir, hostName: "h" });
    expect(sharedStateProblems(config.driver.options, config)).toEqual([
      { path: "backend.local", message: "cannot be used with high_availability: state must be shared" },
    ]);
    expect(sharedStateProblems(config.driver.options, { ...config, high_availability: undefined })).toEqual([]);
  });
});
