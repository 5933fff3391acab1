/** @module /v1/agent/self and /v1/agent/members bodies (every top-level value of self is an object: Go decodes a map of maps). */
import type { ConsulState } from "../state/consul-state.ts";

/** The Consul version the dev server reports itself as. */
export const CONSUL_VERSION = "1.21.5";

export function agentMember(state: ConsulState): Record<string, unknown> {
  return {
    Name: state.nodeName, Addr: state.address, Port: 8301,
    Tags: { dc: state.datacenter, role: "consul", build: CONSUL_VERSION, id: state.nodeId },
    Status: 1, ProtocolMin: 1, ProtocolMax: 5, ProtocolCur: 2, DelegateMin: 2, DelegateMax: 5, DelegateCur: 4,
  };
}

export function agentSelf(state: ConsulState): Record<string, unknown> {
  return {
    Config: {
      Datacenter: state.datacenter, PrimaryDatacenter: state.datacenter, NodeName: state.nodeName,
      NodeID: state.nodeId, Revision: "cts-dev", Server: true, Version: CONSUL_VERSION,
    },
    DebugConfig: {},
    Coord: { Vec: [0, 0, 0, 0, 0, 0, 0, 0], Error: 1.5, Adjustment: 0, Height: 1e-5 },
    Member: agentMember(state),
    Stats: {},
    Meta: {},
    xDS: null,
  };
}
