/**
 * A variable a third-party block publishes (the nodes condition's `nodes`) reaches an HCP Terraform
 * run like CTS's own: the uploaded variables.tf declares it as its owner says, main.tf passes it to
 * the module, and it is an HCL workspace variable (null until its source published). Uses
 * driver-terraform's root-module service, as the driver does.
 */
import { expect, test } from "vitest";
import type { TaskInputSpec } from "../../../core/plugin-api/mod.ts";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { terraformRootModule } from "../../../plugins/driver-terraform/mod.ts";
import { nodesDeclaration } from "../../../plugins/condition-nodes/mod.ts";
import { desiredVariables } from "../../../plugins/driver-terraform-cloud/src/workspace-inputs.ts";

const inputs: TaskInputSpec[] = [
  { variable: "nodes", block: "condition", type: "nodes", triggers: true, declaration: nodesDeclaration },
];

test("declared, passed to the module and sent as a workspace variable", async () => {
  const model = await terraformRootModule.build({ task: testTask("edge"), inputs, providers: [], requiredProviders: {} });
  const files = terraformRootModule.render(model);
  expect(files["variables.tf"]).toContain(`# Nodes definition protocol v0\nvariable "nodes" {\n`);
  expect(files["main.tf"]).toMatch(/  services = var\.services\n  nodes    = var\.nodes\n/);
  const node = { id: "n-1", node: "edge-1", address: "10.1.0.1", datacenter: "dc1", tagged_addresses: {}, meta: { role: "edge" } };
  const variables = desiredVariables(terraformRootModule, model, { services: {}, nodes: [node] }, []);
  expect(variables.find((variable) => variable.key === "nodes")).toEqual({
    key: "nodes", category: "terraform", sensitive: false,
    value: `[\n  {\n    id               = "n-1"\n    node             = "edge-1"\n    address          = "10.1.0.1"\n` +
      `    datacenter       = "dc1"\n    tagged_addresses = {}\n    meta = {\n      role = "edge"\n    }\n  },\n]`,
  });
  expect(desiredVariables(terraformRootModule, model, { services: {} }, []).find((variable) => variable.key === "nodes")?.value).toBe("null");
});

test("a published variable Terraform cannot name is refused when the root module is built", async () => {
  const bad: TaskInputSpec[] = [{ variable: "count", block: "module_input", type: "odd", triggers: false }];
  await expect(terraformRootModule.build({ task: testTask("edge"), inputs: bad, providers: [], requiredProviders: {} }))
    .rejects.toThrow(`Cannot initialise task "edge": module_input "odd" publishes the variable "count", which Terraform does not accept`);
});
