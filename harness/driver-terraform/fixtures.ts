/** @module Task, Consul and input fixtures for the Terraform driver tests. */
import type {
  ConsulConfig, ProviderConfig, ServiceInstance, TaskConfig, TaskInputs,
} from "../../core/plugin-api/mod.ts";
// The config module alone: benches import these fixtures outside vitest.
import { testConsulConfig, testTask } from "../../core/plugin-testkit/src/test-config.ts";

/** The consul block the driver renders from (backend, environment): the testkit's defaults. */
export const consulConfig: (overrides?: Partial<ConsulConfig>) => ConsulConfig = testConsulConfig;

export function taskConfig(overrides: Partial<TaskConfig> = {}): TaskConfig {
  return testTask("web-task", { module: "./modules/web", ...overrides });
}

export function provider(id: string, fields: Partial<ProviderConfig> = {}): ProviderConfig {
  const [name, alias] = id.split(".");
  return {
    id, name: name!, ...(alias ? { alias } : {}), arguments: {}, task_env: {}, ...fields,
  };
}

export function instance(id: string, node: string, fields: Partial<ServiceInstance> = {}): ServiceInstance {
  return {
    id, name: id.replace(/-\d+$/, ""), kind: "", address: "10.0.0.1", port: 80, meta: {}, tags: [],
    namespace: "", status: "passing", node, node_id: `${node}-id`, node_address: "10.0.0.1",
    node_datacenter: "dc1", node_tagged_addresses: {}, node_meta: {}, cts_user_defined_meta: {},
    ...fields,
  };
}

export function inputsFor(instances: readonly ServiceInstance[], extra: Partial<TaskInputs> = {}): TaskInputs {
  const services: Record<string, ServiceInstance> = {};
  for (const i of instances) services[`${i.id}.${i.node}.${i.node_datacenter}`] = i;
  return { services, ...extra };
}
