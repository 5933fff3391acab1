/** The shared driver conformance suite, run over the example third-party driver loaded by path. */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { expect } from "vitest";
import type { TaskInputs } from "../../core/plugin-api/mod.ts";
import { describeDriverConformance } from "../../core/plugin-testkit/mod.ts";

const service = (id: string, address: string) => ({
  id, name: "web", kind: "", address, port: 80, meta: {}, tags: [], namespace: "", status: "passing",
  node: "node-a", node_id: "n-a", node_address: address, node_datacenter: "dc1", node_tagged_addresses: {},
  node_meta: {}, cts_user_defined_meta: {},
});
const one: TaskInputs = { services: { "web-1.node-a.dc1": service("web-1", "10.0.0.1") } };
const two: TaskInputs = { ...one, services: { ...one.services, "web-2.node-a.dc1": service("web-2", "10.0.0.2") } };

describeDriverConformance("echo", resolve(import.meta.dirname, "../../examples/cts-driver-echo"), {
  driverName: "echo",
  inputs: [one, two],
  async assertApplied(workingDir, inputs) {
    expect(JSON.parse(await readFile(join(workingDir, "inputs.json"), "utf8"))).toEqual(inputs);
  },
});
