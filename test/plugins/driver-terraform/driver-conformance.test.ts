/**
 * The testkit's driver conformance suite over the built-in Terraform driver, as a third-party
 * driver runs it: the plugin booted by the kernel, the real `terraform` binary, a local backend.
 * CTS behaviour pinned: a task's module is applied with its rendered `services` and planned
 * again without changes (CTS's inspect after an apply), and the applied state survives a new
 * driver instance for the same task (CTS re-creates drivers on restart, state stays in the backend).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { describeDriverConformance, testTask } from "../../../core/plugin-testkit/mod.ts";
import driverTerraformPlugin from "../../../plugins/driver-terraform/mod.ts";
import { inputsFor, instance } from "../../../harness/driver-terraform/fixtures.ts";
import { tempDir, terraformTestEnv } from "../../../harness/driver-terraform/terraform-env.ts";

const tmp = tempDir("conformance");
const savedEnv = { ...process.env };

beforeAll(() => {
  // The process runner layers task env over the daemon's: no network, no shared plugin cache.
  for (const [key, value] of Object.entries(terraformTestEnv())) process.env[key] = value;
  for (const key of ["TF_DATA_DIR", "TF_PLUGIN_CACHE_DIR", "TF_WORKSPACE", "TF_LOG"]) delete process.env[key];
});
afterAll(() => {
  process.env = savedEnv;
  tmp.remove();
});

describeDriverConformance("terraform", driverTerraformPlugin, {
  driverName: "terraform",
  driverOptions: { backend: { local: { path: join(tmp.path, "state.tfstate") } } },
  task: testTask("conformance-task", {
    module: join(import.meta.dirname, "modules", "echo"),
    // Terraform runs in the task's working directory, so each test's task writes its own ids.txt.
    variables: { dir: JSON.stringify(".") },
  }),
  inputs: [inputsFor([instance("web", "n1")]), inputsFor([instance("web", "n1"), instance("api", "n2")])],
  assertApplied(workingDir, inputs) {
    // The echo module writes the sorted service ids it was given.
    expect(readFileSync(join(workingDir, "ids.txt"), "utf8")).toBe(Object.keys(inputs.services).sort().join(","));
  },
  timeoutMs: 60_000,
});
