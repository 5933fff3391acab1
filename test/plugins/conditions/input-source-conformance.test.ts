/**
 * @module The testkit's condition conformance suite over every built-in condition and module
 * input (the nodes plugin's too), against the embedded Consul server through the real client and shared watcher.
 */
import { afterAll, beforeAll } from "vitest";
import { type ConditionConformanceCase, describeConditionConformance } from "../../../core/plugin-testkit/mod.ts";
import {
  catalogServicesConditionFactory, consulKvConditionFactory, consulKvModuleInputFactory, servicesConditionFactory, servicesModuleInputFactory,
} from "../../../plugins/consul-inputs/mod.ts";
import { scheduleConditionFactory } from "../../../plugins/condition-schedule/mod.ts";
import { nodesConditionFactory, nodesModuleInputFactory } from "../../../plugins/condition-nodes/mod.ts";
import { type ConsulHarness, startConsulHarness } from "./helpers/consul-harness.ts";

let consul: ConsulHarness;
beforeAll(async () => {
  consul = await startConsulHarness();
  await consul.register({ node: "n1", id: "conf-web", name: "conf-web" });
  await consul.kvPut("conf/key", "v");
});
afterAll(async () => {
  await consul?.close();
});

const newInstance = async () => {
  await consul.register({ node: "n2", id: "conf-web-2", name: "conf-web" });
  return () => consul.deregister("n2", "conf-web-2");
};
const newService = async () => {
  await consul.register({ node: "n2", id: "conf-db", name: "conf-db" });
  return () => consul.deregister("n2", "conf-db");
};
const newValue = async () => {
  await consul.kvPut("conf/key", "changed");
  return () => consul.kvPut("conf/key", "v");
};

/** A node joins; undone by the node leaving (a service's deregistration leaves its node in the catalog). */
const newNode = async () => {
  await consul.request("PUT", "/v1/catalog/register", { Node: "conf-node", Address: "10.3.0.1" });
  return async () => {
    await consul.request("PUT", "/v1/catalog/deregister", { Node: "conf-node" });
  };
};

const cases: ConditionConformanceCase[] = [
  { label: "condition services (names)", factory: servicesConditionFactory, config: { names: ["conf-web", "conf-none"] }, condition: true, change: newInstance },
  { label: "condition services (regexp)", factory: servicesConditionFactory, config: { regexp: "^conf-" }, condition: true, change: newService },
  { label: "condition catalog-services", factory: catalogServicesConditionFactory, config: { regexp: "^conf-" }, condition: true, change: newService },
  { label: "condition consul-kv", factory: consulKvConditionFactory, config: { path: "conf/key" }, condition: true, change: newValue },
  { label: "condition consul-kv (recurse)", factory: consulKvConditionFactory, config: { path: "conf", recurse: true }, condition: true, change: newValue },
  // CTS's schedule condition renders nothing and never queries Consul; every second, it triggers.
  { label: "condition schedule", factory: scheduleConditionFactory, config: { cron: "* * * * * * *" }, condition: true, watches: false, change: async () => async () => {} },
  { label: "module_input services", factory: servicesModuleInputFactory, config: { names: ["conf-web"] }, condition: false, change: newInstance },
  { label: "module_input consul-kv", factory: consulKvModuleInputFactory, config: { path: "conf/key" }, condition: false, change: newValue },
  { label: "condition nodes", factory: nodesConditionFactory, config: { filter: `Node != "nobody"` }, condition: true, change: newNode },
  { label: "module_input nodes", factory: nodesModuleInputFactory, config: { node_meta: {} }, condition: false, change: newNode },
];

describeConditionConformance("built-in Consul sources", { watcher: () => consul.watcher, cases });
