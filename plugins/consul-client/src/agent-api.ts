/** @module Typed agent calls: service registration and `agent/self`. */
import type { AgentServiceRegistration } from "../../../core/plugin-api/mod.ts";
import type { ConsulCall } from "./consul-call.ts";

export class AgentApi {
  readonly #call: ConsulCall;

  constructor(call: ConsulCall) {
    this.#call = call;
  }

  async registerService(service: AgentServiceRegistration): Promise<void> {
    await this.#call.send(`register service "${service.ID ?? service.Name}"`, {
      method: "PUT", path: "/v1/agent/service/register", body: service,
    });
  }

  async deregisterService(id: string, options: { namespace?: string } = {}): Promise<void> {
    await this.#call.send(`deregister service "${id}"`, {
      method: "PUT",
      path: `/v1/agent/service/deregister/${encodeURIComponent(id)}`,
      query: options.namespace ? { ns: options.namespace } : {},
    });
  }

  async self(): Promise<{ nodeName: string; datacenter: string }> {
    const response = await this.#call.send("read agent self", { method: "GET", path: "/v1/agent/self" });
    const config = (JSON.parse(response.text) as { Config?: { NodeName?: string; Datacenter?: string } }).Config ?? {};
    return Object.freeze({ nodeName: config.NodeName ?? "", datacenter: config.Datacenter ?? "" });
  }
}
